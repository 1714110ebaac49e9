"use server";

import { revalidatePath } from "next/cache";
import { requireAdmin } from "@/lib/auth/session";
import { revokeApiKey } from "@/lib/api-keys";
import { setEnabled } from "@/lib/webhooks/endpoints";
import { replayDelivery } from "@/lib/webhooks/replay";

const id = (form: FormData) => String(form.get("id") ?? "");

export async function adminRevokeKey(form: FormData) {
  const { app } = await requireAdmin();
  await revokeApiKey(app.db, id(form));
  revalidatePath("/admin/keys");
}

export async function adminReplayDelivery(form: FormData) {
  const { app } = await requireAdmin();
  await replayDelivery(app, id(form));
  revalidatePath("/admin/webhooks");
}

export async function adminEnableEndpoint(form: FormData) {
  const { app } = await requireAdmin();
  await setEnabled(app.db, id(form), true, null);
  revalidatePath("/admin/webhooks");
}
