// What a form's or a button's server action answers, and the one way the domain's refusal becomes
// the text it shows: an action reads its FormData, parses it with the command's schema and calls
// the command; whatever the domain refuses (a role, a budget, a field) is shown, nothing changed.
import { DomainError, whereOf } from "@/lib/domain";

/** `values` gives back what was typed after an error: React resets a form after its action. */
export type ActionState =
  | {
      error?: string;
      key?: string;
      secret?: string;
      link?: string;
      /** The address a link was emailed to as well. */
      emailed?: string;
      expiresAt?: string;
      values?: Record<string, string>;
    }
  | undefined;

/** A form field as typed, trimmed ("" when absent). */
export const field = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** What a refused or invalid change tells the form: the detail, and where each field went wrong. */
export const problemText = (error: DomainError) =>
  error.errors?.length ? error.errors.map((e) => `${whereOf(e)}: ${e.detail}`).join("; ") : error.detail;

/** `act`'s answer, or the domain's refusal as the error shown, with what was typed (`values`). */
export async function attempt<T>(
  act: () => Promise<T>,
  values?: Record<string, string>,
): Promise<T | { error: string; values?: Record<string, string> }> {
  try {
    return await act();
  } catch (error) {
    if (error instanceof DomainError) return { error: problemText(error), ...(values && { values }) };
    throw error;
  }
}
