// A row's button in the portal's lists (revoke a key, remove a member...): the member allowed
// `action` runs `command` on the row's id, as a command's writer on the account's budget; the
// domain's refusal is what the button shows.
import { revalidatePath } from "next/cache";
import { accountWriter, memberFor, type PartnerContext } from "@/server/session";
import type { Writer } from "@/lib/audit";
import type { PortalAction } from "@/lib/domain";
import type { ButtonResult } from "../_components/action-button";
import { attempt, field } from "../_components/form-action";

export async function onRow(
  action: PortalAction,
  form: FormData,
  list: string,
  command: (ctx: PartnerContext, by: Writer, id: string) => Promise<unknown>,
): Promise<ButtonResult> {
  const ctx = await memberFor(action);
  if ("refused" in ctx) return { error: ctx.refused };
  return attempt(async () => {
    await command(ctx, await accountWriter(ctx), field(form, "id"));
    revalidatePath(list);
    return undefined;
  });
}
