"use client";

import { useActionState } from "react";
import { SubmitButton } from "./submit-button";

/** What a button's action may answer: nothing, or why nothing was done (shown by the button). */
export type ButtonResult = { error: string } | undefined;
/** A button's server action (an operator's answers nothing). */
export type ButtonAction = (form: FormData) => Promise<ButtonResult> | Promise<void>;

/** A one-button form that posts `id` to a server action: the row and card actions (a small secondary button unless told). */
export function ActionButton({
  action,
  id,
  children,
  pendingText,
  className = "btn-secondary btn-sm",
  confirm,
  formClassName,
}: {
  action: ButtonAction;
  id: string;
  children: React.ReactNode;
  pendingText: string;
  className?: string;
  confirm?: string;
  formClassName?: string;
}) {
  const [result, formAction] = useActionState(
    async (_: ButtonResult, form: FormData): Promise<ButtonResult> => (await action(form)) ?? undefined,
    undefined,
  );
  return (
    <form action={formAction} className={formClassName}>
      <input type="hidden" name="id" value={id} />
      <SubmitButton className={className} pendingText={pendingText} confirm={confirm}>
        {children}
      </SubmitButton>
      {result?.error && (
        <p role="alert" className="mt-1 max-w-xs text-xs text-red-700" data-testid="action-error">
          {result.error}
        </p>
      )}
    </form>
  );
}
