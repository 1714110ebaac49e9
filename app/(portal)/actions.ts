"use server";

// Portal actions: thin wrappers that check the session, then call the same lib/ code as the API.
import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { signOut } from "@/auth";
import { requireOwner, requirePartner, MODE_COOKIE } from "@/lib/auth/session";
import { createApiKey, revokeApiKey } from "@/lib/api-keys";
import { checkReference } from "@/lib/cadastral-reference";
import { rateLimitBucket } from "@/lib/rate-limit";
import { registerProperty } from "@/lib/properties/register";
import { createEndpoint, EndpointUrlError, getEndpoint, rotateSecret, setEnabled, deleteEndpoint } from "@/lib/webhooks/endpoints";
import { replayDelivery, replayFailedSince, sendTestEvent } from "@/lib/webhooks/replay";
import { createInvitation } from "@/lib/auth/accounts";
import type { Mode } from "@/drizzle/schema";

export type ActionState = { error?: string; key?: string; secret?: string; link?: string } | undefined;
const field = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

export async function switchMode(form: FormData) {
  const mode: Mode = field(form, "mode") === "live" ? "live" : "test";
  (await cookies()).set(MODE_COOKIE, mode, { httpOnly: true, sameSite: "lax", path: "/" });
  revalidatePath("/", "layout");
}

export async function signOutAction() {
  await signOut({ redirectTo: "/sign-in" });
}

export async function createKeyAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, partnerId } = await requirePartner();
  const mode: Mode = field(form, "mode") === "live" ? "live" : "test";
  const name = field(form, "name");
  if (!name) return { error: "Give the key a name, e.g. the system that will use it." };
  const { key } = await createApiKey(app.db, { partnerId, mode, name: name.slice(0, 100) });
  revalidatePath("/keys");
  return { key };
}

export async function revokeKeyAction(form: FormData) {
  const { app, partnerId } = await requirePartner();
  await revokeApiKey(app.db, field(form, "id"), partnerId);
  revalidatePath("/keys");
}

/** The API's create path from the portal, under the same rate limit and the same messages. */
export async function registerPropertyAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, scope } = await requirePartner();
  const decision = await app.rateLimiter.hit(rateLimitBucket(scope.partnerId, scope.mode));
  if (!decision.allowed) return { error: `Rate limit reached (${decision.limit} writes per ${decision.windowSeconds} s). Try again in ${decision.resetSeconds} s.` };
  const check = checkReference(field(form, "cadastral_reference"));
  if (!check.ok) {
    const reason = { length: "must be 14 or 20 characters", charset: "may contain only digits and letters A-Z and Ñ", check_letters: "has wrong check letters" }[check.reason];
    return { error: `The reference "${check.reference}" ${reason}.` };
  }
  const { property } = await registerProperty(app, scope, check.reference);
  redirect(`/properties/${property.property_id}`);
}

export async function createEndpointAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, scope } = await requirePartner();
  try {
    const { secret } = await createEndpoint(app.db, scope, { url: field(form, "url"), description: field(form, "description") }, app.config.FINCA_WEBHOOKS_ALLOW_PRIVATE);
    revalidatePath("/webhooks");
    return { secret };
  } catch (error) {
    if (error instanceof EndpointUrlError) return { error: error.message };
    throw error;
  }
}

async function ownEndpoint(form: FormData) {
  const ctx = await requirePartner();
  const endpoint = await getEndpoint(ctx.app.db, ctx.scope, field(form, "id"));
  if (!endpoint) redirect("/webhooks");
  return { ...ctx, endpoint: endpoint! };
}

export async function rotateSecretAction(form: FormData) {
  const { app, scope, endpoint } = await ownEndpoint(form);
  await rotateSecret(app.db, scope, endpoint.id);
  revalidatePath("/webhooks");
}

export async function toggleEndpointAction(form: FormData) {
  const { app, scope, endpoint } = await ownEndpoint(form);
  await setEnabled(app.db, endpoint.id, !endpoint.enabled, endpoint.enabled ? "disabled_by_partner" : null, scope);
  revalidatePath("/webhooks");
}

export async function deleteEndpointAction(form: FormData) {
  const { app, scope, endpoint } = await ownEndpoint(form);
  await deleteEndpoint(app.db, scope, endpoint.id);
  revalidatePath("/webhooks");
}

export async function sendTestEventAction(form: FormData) {
  const { app, endpoint } = await ownEndpoint(form);
  await sendTestEvent(app, endpoint);
  revalidatePath("/webhooks");
}

export async function replayDeliveryAction(form: FormData) {
  const { app, partnerId } = await requirePartner();
  await replayDelivery(app, field(form, "id"), partnerId);
  revalidatePath("/webhooks");
  revalidatePath("/properties");
}

export async function replayFailedAction(form: FormData) {
  const { app, partnerId, endpoint } = await ownEndpoint(form);
  const hours = Number(field(form, "hours")) || 24;
  await replayFailedSince(app, endpoint.id, new Date(Date.now() - hours * 3600_000), partnerId);
  revalidatePath("/webhooks");
}

export async function inviteAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, partnerId, user } = await requireOwner();
  const token = await createInvitation(app.db, partnerId, user.id, field(form, "email") || undefined);
  return { link: `/invite/${token}` };
}
