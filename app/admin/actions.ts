"use server";

// Operator actions: any partner's keys, endpoints and deliveries, after checking the admin role.
import { revalidatePath } from "next/cache";
import { actorOf, linkBase, requireOperator, type PortalContext } from "@/server/session";
import type { AuditAction, AuditEntry } from "@/lib/audit";
import { countedChange } from "@/server/recorded";
import type { DbOrTx } from "@/lib/db";
import { budgetOn, operatorBucket } from "@/lib/rate-limit";
import type { ButtonResult } from "../_components/action-button";
import { keyNamed, revokeApiKey } from "@/lib/api-keys";
import { setEnabled } from "@/lib/webhooks/endpoints";
import { replayDelivery, replayFailedSince } from "@/lib/webhooks/replay";
import { endSessions, getUser, resetPassword, setDisabled, type User } from "@/lib/auth/users";
import { DomainError } from "@/lib/domain";
import { requestRefresh } from "@/lib/registers";
import { decideLiveAccessAndTell } from "@/lib/email";

const id = (form: FormData) => String(form.get("id") ?? "");

/**
 * An operator's change, counted first on that operator's own budget (the size of a partner's): a
 * console button pressed in a loop is refused with the reason, and changes nothing more. The change
 * and its row in the security history commit together. A command's refusal (a domain error: a
 * dataset that does not exist, one's own account) is the button's answer, never a 500.
 */
async function counted<T>(
  change: (tx: DbOrTx, ctx: PortalContext) => Promise<T>,
  entry: (result: T) => AuditEntry | null,
): Promise<ButtonResult> {
  const ctx = await requireOperator();
  try {
    const made = await countedChange(
      ctx.app,
      await actorOf(ctx),
      budgetOn(ctx.app.rateLimiter, operatorBucket(ctx.user.id)),
      (tx) => change(tx, ctx),
      entry,
    );
    revalidatePath("/admin", "layout");
    return "refused" in made ? { error: made.refused } : undefined;
  } catch (error) {
    if (error instanceof DomainError) return { error: error.detail };
    throw error;
  }
}

/** The user an operator acts on, for the history (their partner's, and their email). */
const userEntry = (action: AuditAction, user: User | null): AuditEntry | null =>
  user ? { partnerId: user.partnerId, action, target: user.email } : null;

/** `change` on the user `id` names, that user handed on for the history; null (nothing recorded) when it names none. */
const onUser =
  (id: string, change: (tx: DbOrTx, user: User, ctx: PortalContext) => Promise<unknown>) =>
  async (tx: DbOrTx, ctx: PortalContext) => {
    const user = await getUser(tx, id);
    if (user) await change(tx, user, ctx);
    return user;
  };

export async function adminRevokeKey(form: FormData) {
  return counted(
    (tx) => revokeApiKey(tx, id(form)),
    (key) =>
      key
        ? {
            partnerId: key.partnerId,
            action: "api_key.revoked",
            target: keyNamed(key),
            detail: { mode: key.mode },
          }
        : null,
  );
}

export async function adminReplayDelivery(form: FormData) {
  return counted(
    (tx, { app }) => replayDelivery({ ...app, db: tx }, id(form)),
    (replayed) =>
      replayed ? { partnerId: null, action: "webhook.replayed", target: null, detail: { delivery: id(form) } } : null,
  );
}

/** Every failed delivery of the endpoint, e.g. after the partner fixed their receiver. */
export async function adminReplayFailed(form: FormData) {
  return counted(
    (tx, { app }) => replayFailedSince({ ...app, db: tx }, id(form), new Date(0)),
    (count) => ({
      partnerId: null,
      action: "webhook.replayed_failed",
      target: null,
      detail: { endpoint: id(form), deliveries: count },
    }),
  );
}

export async function adminEnableEndpoint(form: FormData) {
  return counted(
    (tx) => setEnabled(tx, id(form), true, null),
    (enabled) =>
      enabled
        ? { partnerId: null, action: "webhook_endpoint.enabled", target: null, detail: { endpoint: id(form) } }
        : null,
  );
}

/** Disables or enables a user; either way every session of theirs ends. An operator's own row refuses. */
const toggleUser = (form: FormData, disable: boolean) =>
  counted(
    onUser(id(form), (tx, user, { user: operator }) => setDisabled(tx, operator.id, user.id, disable)),
    (user) => userEntry(disable ? "user.disabled" : "user.enabled", user),
  );

/** Ends every session of the user (a lost laptop, a shared password): they sign in again. */
export async function adminEndSessions(form: FormData) {
  return counted(
    onUser(id(form), (tx, user) => endSessions(tx, user.id)),
    (user) => userEntry("user.sessions_ended", user),
  );
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
  const ctx = await requireOperator();
  const { app, user } = ctx;
  try {
    // The user read before the reset, for the history's entry.
    let target: User | null = null;
    const made = await countedChange(
      app,
      await actorOf(ctx),
      budgetOn(app.rateLimiter, operatorBucket(user.id)),
      async (tx) => {
        target = await getUser(tx, id(form));
        return resetPassword(tx, app.passwords, id(form));
      },
      () => userEntry("password.reset", target),
    );
    return "refused" in made ? { error: made.refused } : { password: made.done };
  } catch (error) {
    if (error instanceof DomainError) return { error: error.detail };
    throw error;
  }
}

/** Downloads and imports a register dataset from its configured URLs, in a worker. */
export async function adminRefreshRegister(form: FormData) {
  return counted(
    (tx, { app }) => requestRefresh(app.queue, tx, app.config.REGISTER_URLS, id(form)),
    () => ({ partnerId: null, action: "register.refresh_requested", target: id(form) }),
  );
}

/** Grants or refuses a waiting request for live access (the organisation's owners see the answer, and are emailed). */
async function decideLive(form: FormData, approve: boolean) {
  return counted(
    async (tx, { app }) => decideLiveAccessAndTell(tx, id(form), approve, { base: await linkBase(app) }),
    (decided) =>
      decided && {
        partnerId: id(form),
        action: approve ? "live_access.approved" : "live_access.refused",
        target: decided.name,
      },
  );
}

export const adminApproveLive = async (form: FormData) => decideLive(form, true);
export const adminRefuseLive = async (form: FormData) => decideLive(form, false);
