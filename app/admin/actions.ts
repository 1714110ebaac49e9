"use server";

// Operator actions: any partner's keys, endpoints and deliveries, after checking the admin role.
import { revalidatePath } from "next/cache";
import { requireAdmin } from "@/server/session";
import { revokeApiKey } from "@/lib/api-keys";
import { setEnabled } from "@/lib/webhooks/endpoints";
import { replayDelivery, replayFailedSince } from "@/lib/webhooks/replay";
import { resetPassword, setDisabled } from "@/lib/auth/users";
import { DomainError } from "@/lib/domain";
import { requestRefresh } from "@/lib/registers";

const id = (form: FormData) => String(form.get("id") ?? "");

export async function adminRevokeKey(form: FormData) {
  const { app } = await requireAdmin();
  await revokeApiKey(app.db, id(form));
  revalidatePath("/admin", "layout");
}

export async function adminReplayDelivery(form: FormData) {
  const { app } = await requireAdmin();
  await replayDelivery(app, id(form));
  revalidatePath("/admin", "layout");
}

/** Every failed delivery of the endpoint, e.g. after the partner fixed their receiver. */
export async function adminReplayFailed(form: FormData) {
  const { app } = await requireAdmin();
  await replayFailedSince(app, id(form), new Date(0));
  revalidatePath("/admin", "layout");
}

export async function adminEnableEndpoint(form: FormData) {
  const { app } = await requireAdmin();
  await setEnabled(app.db, id(form), true, null);
  revalidatePath("/admin", "layout");
}

/** Disables or enables a user; either way every session of theirs ends. */
export async function adminToggleUser(form: FormData) {
  const { app, user } = await requireAdmin();
  await setDisabled(app.db, user.id, id(form), String(form.get("disable")) === "1").catch((error: unknown) => {
    if (!(error instanceof DomainError)) throw error;
  });
  revalidatePath("/admin/users");
}

export type ResetState = { password?: string; error?: string } | undefined;

/** A new password for the user, shown once to the operator; every session of theirs ends. */
export async function adminResetPassword(_: ResetState, form: FormData): Promise<ResetState> {
  const { app } = await requireAdmin();
  try {
    return { password: await resetPassword(app.db, app.passwords, id(form)) };
  } catch (error) {
    if (error instanceof DomainError) return { error: error.detail };
    throw error;
  }
}

/** Downloads and imports a register dataset from its configured URLs, in a worker. */
export async function adminRefreshRegister(form: FormData) {
  const { app } = await requireAdmin();
  await requestRefresh(app.queue, app.config.REGISTER_URLS, id(form));
  revalidatePath("/admin/registers");
}
