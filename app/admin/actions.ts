"use server";

// Operator actions: any partner's keys, endpoints and deliveries, after checking the admin role.
import { revalidatePath } from "next/cache";
import { requireAdmin, type PortalContext } from "@/server/session";
import { budgetOn, operatorBucket, spent, unlessRefused } from "@/lib/rate-limit";
import type { ButtonResult } from "../_components/action-button";
import { revokeApiKey } from "@/lib/api-keys";
import { setEnabled } from "@/lib/webhooks/endpoints";
import { replayDelivery, replayFailedSince } from "@/lib/webhooks/replay";
import { endSessions, resetPassword, setDisabled } from "@/lib/auth/users";
import { DomainError } from "@/lib/domain";
import { requestRefresh } from "@/lib/registers";

const id = (form: FormData) => String(form.get("id") ?? "");

/**
 * An operator's change, counted first on that operator's own budget (the size of a partner's): a
 * console button pressed in a loop is refused with the reason, and changes nothing more.
 */
async function counted(change: (ctx: PortalContext) => Promise<unknown>): Promise<ButtonResult> {
  const ctx = await requireAdmin();
  const made = await unlessRefused(
    spent(budgetOn(ctx.app.rateLimiter, operatorBucket(ctx.user.id)), () => change(ctx)),
  );
  revalidatePath("/admin", "layout");
  return "refused" in made ? { error: made.refused } : undefined;
}

export async function adminRevokeKey(form: FormData) {
  return counted(({ app }) => revokeApiKey(app.db, id(form)));
}

export async function adminReplayDelivery(form: FormData) {
  return counted(({ app }) => replayDelivery(app, id(form)));
}

/** Every failed delivery of the endpoint, e.g. after the partner fixed their receiver. */
export async function adminReplayFailed(form: FormData) {
  return counted(({ app }) => replayFailedSince(app, id(form), new Date(0)));
}

export async function adminEnableEndpoint(form: FormData) {
  return counted(({ app }) => setEnabled(app.db, id(form), true, null));
}

/** Disables or enables a user; either way every session of theirs ends. An operator's own row refuses. */
const toggleUser = (form: FormData, disable: boolean) =>
  counted(({ app, user }) =>
    setDisabled(app.db, user.id, id(form), disable).catch((error: unknown) => {
      if (!(error instanceof DomainError)) throw error;
    }),
  );

/** Ends every session of the user (a lost laptop, a shared password): they sign in again. */
export async function adminEndSessions(form: FormData) {
  return counted(({ app }) => endSessions(app.db, id(form)));
}

export async function adminDisableUser(form: FormData) {
  return toggleUser(form, true);
}

export async function adminEnableUser(form: FormData) {
  return toggleUser(form, false);
}

export type ResetState = { password?: string; error?: string } | undefined;

/** A new password for the user, shown once to the operator; every session of theirs ends. */
export async function adminResetPassword(_: ResetState, form: FormData): Promise<ResetState> {
  const { app, user } = await requireAdmin();
  try {
    const made = await unlessRefused(
      spent(budgetOn(app.rateLimiter, operatorBucket(user.id)), () => resetPassword(app.db, app.passwords, id(form))),
    );
    return "refused" in made ? { error: made.refused } : { password: made.done };
  } catch (error) {
    if (error instanceof DomainError) return { error: error.detail };
    throw error;
  }
}

/** Downloads and imports a register dataset from its configured URLs, in a worker. */
export async function adminRefreshRegister(form: FormData) {
  return counted(({ app }) => requestRefresh(app.queue, app.config.REGISTER_URLS, id(form)));
}
