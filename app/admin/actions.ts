"use server";

// Operator actions: any partner's keys, endpoints and deliveries, after checking the admin role.
import { revalidatePath } from "next/cache";
import { requireAdmin } from "@/server/session";
import { revokeApiKey } from "@/lib/api-keys";
import { setEnabled } from "@/lib/webhooks/endpoints";
import { replayDelivery, replayFailedSince } from "@/lib/webhooks/replay";

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
