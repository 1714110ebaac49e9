"use server";

// Portal actions: thin wrappers that check the session and scope, then call the same lib/ code as
// the API. Every one re-checks the user: a server action is a public endpoint.
import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { signOut } from "@/server/auth";
import { requireOwner, requirePartner, requireUser, MODE_COOKIE } from "@/server/session";
import { createApiKey, revokeApiKey, rollApiKey, ROLL_EXPIRIES } from "@/lib/api-keys";
import type { ButtonResult } from "../_components/action-button";
import { DomainError, EVENT_TYPES, hasControl, whereOf, type WriteBudget } from "@/lib/domain";
import {
  expirePreviousSecret,
  getEndpoint,
  ROTATION_OVERLAPS,
  rotateSecret,
  type RotationOverlap,
  signingSecrets,
} from "@/lib/webhooks/endpoints";
import { addEndpoint, changeEndpoint, removeEndpoint } from "@/lib/webhooks/commands";
import { createProperty } from "@/lib/properties";
import { accountBucket, budgetOn, rateLimitBucket, spent, unlessRefused } from "@/lib/rate-limit";
import { replayDelivery, replayFailedSince, sendTestEvent } from "@/lib/webhooks/replay";
import { createInvitation, withdrawInvitation } from "@/lib/auth/accounts";
import { removeMember } from "@/lib/auth/users";
import { endOtherSessions, endSession } from "@/lib/auth/sessions";
import type { Mode, Scope } from "@/lib/domain";
import type { App } from "@/server/app";
import { MAX_URL_LENGTH } from "@/lib/http/ssrf";

/** `values` gives back what was typed after an error: React resets a form after its action. */
export type ActionState =
  | {
      error?: string;
      key?: string;
      secret?: string;
      link?: string;
      expiresAt?: string;
      values?: Record<string, string>;
    }
  | undefined;
const field = (form: FormData, name: string) => String(form.get(name) ?? "").trim();
/**
 * Key and endpoint changes count on the account's own budget, the same size as the API's, so a bulk
 * load that spent the API's cannot lock the partner out of its account.
 */
const accountBudget = (app: App, scope: Scope): WriteBudget => budgetOn(app.rateLimiter, accountBucket(scope));
/** What a refused or invalid change tells the form: the detail, and where each field went wrong. */
const problemText = (error: DomainError) =>
  error.errors?.length ? error.errors.map((e) => `${whereOf(e)}: ${e.detail}`).join("; ") : error.detail;
const modeOf = (form: FormData): Mode => (field(form, "mode") === "live" ? "live" : "test");

export async function switchMode(form: FormData) {
  await requirePartner();
  (await cookies()).set(MODE_COOKIE, modeOf(form), {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 365 * 24 * 3600,
  });
  // A property or endpoint belongs to one mode: from its page, go to the list of the other mode.
  const from = field(form, "from");
  if (/^\/properties\/.+/.test(from)) redirect("/properties");
  revalidatePath("/", "layout");
}

/** Ends this session only: a copy of its cookie stops working too; the user's other browsers stay. */
export async function signOutAction() {
  const { app, user, sessionId } = await requireUser();
  await endSession(app.db, user.id, sessionId);
  await signOut({ redirectTo: "/sign-in" });
}

/**
 * Ends one of the user's other sessions (a browser left signed in elsewhere), or all of them. Not
 * counted against a write budget: whoever spent it must not keep the user from ending a session.
 */
export async function endSessionAction(form: FormData): Promise<ButtonResult> {
  const { app, user, sessionId } = await requireUser();
  const id = field(form, "id");
  if (id === sessionId) return { error: "This is the session you are using: sign out instead." };
  const ended = await endSession(app.db, user.id, id);
  revalidatePath("/", "layout");
  return ended ? undefined : { error: "That session had already ended." };
}

export async function endOtherSessionsAction(): Promise<ButtonResult> {
  const { app, user, sessionId } = await requireUser();
  await endOtherSessions(app.db, user.id, sessionId);
  revalidatePath("/", "layout");
  return undefined;
}

export async function createKeyAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, partnerId, scope } = await requirePartner();
  const name = field(form, "name");
  if (!name) return { error: "Give the key a name, e.g. the system that will use it." };
  if (hasControl(name) || name.length > 100)
    return {
      error: "The name can have at most 100 characters and no control characters.",
      values: { name: name.slice(0, 100) },
    };
  const made = await counted(app, scope, () => createApiKey(app.db, { partnerId, mode: modeOf(form), name }));
  if ("refused" in made) return { error: made.refused, values: { name } };
  revalidatePath("/keys");
  return { key: made.done.key };
}

/** Rolls a key: a new one now, the old one until the chosen expiry. */
export async function rollKeyAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, partnerId, scope } = await requirePartner();
  const expiry = field(form, "expires_in");
  if (!Object.hasOwn(ROLL_EXPIRIES, expiry)) return { error: "Choose when the old key stops working." };
  const made = await counted(app, scope, () =>
    rollApiKey(app.db, {
      id: field(form, "id"),
      partnerId,
      expiresInSeconds: ROLL_EXPIRIES[expiry as keyof typeof ROLL_EXPIRIES],
    }),
  );
  if ("refused" in made) return { error: made.refused };
  const rolled = made.done;
  if (!rolled)
    return { error: "This key is no longer active: it was revoked, expired or rolled to a shorter expiry meanwhile." };
  revalidatePath("/keys");
  return { key: rolled.key, expiresAt: rolled.rolled.expiresAt!.toISOString() };
}

/** A change only the portal makes (revoke, rotate, test event, replay...): the account's budget spent first. */
const counted = <T>(app: App, scope: Scope, change: () => Promise<T>) =>
  unlessRefused(spent(accountBudget(app, scope), change));

/** What a button shows: nothing, or the refusal. */
const button = (made: { done: unknown } | { refused: string }): ButtonResult =>
  "refused" in made ? { error: made.refused } : undefined;

export async function revokeKeyAction(form: FormData): Promise<ButtonResult> {
  const { app, partnerId, scope } = await requirePartner();
  const result = button(await counted(app, scope, () => revokeApiKey(app.db, field(form, "id"), partnerId)));
  revalidatePath("/keys");
  return result;
}

/** The API's create path from the portal: same rate limit, same checks, same messages. */
export async function registerPropertyAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, scope } = await requirePartner();
  const typed = String(form.get("cadastral_reference") ?? "");
  let id: string;
  try {
    // Counted on the partner's write budget, as the API's create: the integration shares it.
    const budget = budgetOn(app.rateLimiter, rateLimitBucket(scope));
    id = (await createProperty(app, scope, budget, { cadastral_reference: typed })).property.property_id;
  } catch (error) {
    if (error instanceof DomainError) return { error: problemText(error), values: { cadastral_reference: typed } };
    throw error;
  }
  revalidatePath("/properties");
  redirect(`/properties/${id}`);
}

export async function createEndpointAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, scope } = await requirePartner();
  const types = form.getAll("event_types").map(String);
  // Every box ticked: every type, types added later included (the API's default).
  const eventTypes = EVENT_TYPES.every((t) => types.includes(t)) ? undefined : types;
  const values = {
    url: field(form, "url").slice(0, MAX_URL_LENGTH + 1),
    description: field(form, "description").slice(0, 501),
    event_types: types.join(",").slice(0, 200),
  };
  if (eventTypes && !eventTypes.length) return { error: "Choose at least one event for the endpoint.", values };
  try {
    // The API's own command: the portal accepts exactly what the API accepts.
    const { secret } = await addEndpoint(app, scope, accountBudget(app, scope), {
      url: field(form, "url"),
      ...(field(form, "description") && { description: field(form, "description") }),
      ...(eventTypes && { event_types: eventTypes }),
    });
    revalidatePath("/webhooks", "layout");
    return { secret };
  } catch (error) {
    if (error instanceof DomainError) return { error: problemText(error), values };
    throw error;
  }
}

async function ownEndpoint(id: string) {
  const ctx = await requirePartner();
  const endpoint = await getEndpoint(ctx.app.db, ctx.scope, id);
  if (!endpoint) redirect("/webhooks");
  return { ...ctx, endpoint };
}

/**
 * The API's update from the portal: its request schema and URL rules, counted as a write. An empty
 * description removes it. Success is a state without an error (the form says "Saved").
 */
export async function updateEndpointAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, scope, endpoint } = await ownEndpoint(field(form, "id"));
  const values = {
    url: field(form, "url").slice(0, MAX_URL_LENGTH + 1),
    description: field(form, "description").slice(0, 501),
  };
  try {
    const updated = await changeEndpoint(app, scope, accountBudget(app, scope), endpoint.id, {
      url: field(form, "url"),
      description: field(form, "description"),
    });
    if (!updated) return { error: "This endpoint was deleted meanwhile.", values };
    revalidatePath("/webhooks", "layout");
    return {};
  } catch (error) {
    if (error instanceof DomainError) return { error: problemText(error), values };
    throw error;
  }
}

/** The signing secrets, fetched only when the partner asks to see them (not in the page's HTML). */
export async function revealSecretAction(id: string): Promise<{ value: string; expiresAt: string | null }[]> {
  const { endpoint } = await ownEndpoint(id);
  return signingSecrets(endpoint).map((value, i) => ({
    value,
    expiresAt: i === 0 ? null : (endpoint.previousSecretExpiresAt?.toISOString() ?? null),
  }));
}

/** Rotates and says what happened: the old secret's end of overlap, shown on the page. */
export async function rotateSecretAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, scope, endpoint } = await ownEndpoint(field(form, "id"));
  const overlap = field(form, "overlap");
  if (!Object.hasOwn(ROTATION_OVERLAPS, overlap)) return { error: "Choose how long the current secret keeps signing." };
  const made = await counted(app, scope, () =>
    rotateSecret(app.db, scope, endpoint.id, {
      overlap: overlap as RotationOverlap,
      endOpenOverlap: field(form, "end_overlap") === "yes",
    }),
  );
  if ("refused" in made) return { error: made.refused };
  const rotation = made.done;
  revalidatePath("/webhooks", "layout");
  if (rotation.rotated) return { expiresAt: rotation.previousSecretExpiresAt?.toISOString() ?? "now" };
  if (rotation.reason === "not_found") return { error: "This endpoint was deleted meanwhile." };
  return {
    error: `An earlier rotation's previous secret still signs until ${rotation.overlapEndsAt.toISOString().slice(0, 16).replace("T", " ")} UTC. Confirm that it stops signing now to rotate again.`,
  };
}

/** Ends the rotation overlap now: the old secret stops signing from the next attempt. */
export async function expireOldSecretAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, scope, endpoint } = await ownEndpoint(field(form, "id"));
  const made = await counted(app, scope, () => expirePreviousSecret(app.db, scope, endpoint.id));
  revalidatePath("/webhooks", "layout");
  if ("refused" in made) return { error: made.refused };
  return made.done ? { expiresAt: "now" } : { error: "There is no old secret left to expire." };
}

export async function toggleEndpointAction(form: FormData): Promise<ButtonResult> {
  const { app, scope, endpoint } = await ownEndpoint(field(form, "id"));
  // The API's update of `enabled`: disabling says it was the partner's choice; enabling forgets the failures.
  const result = button(
    await unlessRefused(() =>
      changeEndpoint(app, scope, accountBudget(app, scope), endpoint.id, { enabled: !endpoint.enabled }),
    ),
  );
  revalidatePath("/webhooks", "layout");
  return result;
}

export async function deleteEndpointAction(form: FormData): Promise<ButtonResult> {
  const { app, scope, endpoint } = await ownEndpoint(field(form, "id"));
  const result = button(await unlessRefused(() => removeEndpoint(app, scope, accountBudget(app, scope), endpoint.id)));
  revalidatePath("/webhooks", "layout");
  return result;
}

export async function sendTestEventAction(form: FormData): Promise<ButtonResult> {
  const { app, scope, endpoint } = await ownEndpoint(field(form, "id"));
  const result = button(await counted(app, scope, () => sendTestEvent(app, endpoint)));
  revalidatePath("/webhooks", "layout");
  return result;
}

export async function replayDeliveryAction(form: FormData): Promise<ButtonResult> {
  const { app, partnerId, scope } = await requirePartner();
  const result = button(await counted(app, scope, () => replayDelivery(app, field(form, "id"), partnerId)));
  revalidatePath("/webhooks", "layout");
  revalidatePath("/properties", "layout");
  return result;
}

export async function replayFailedAction(form: FormData): Promise<ButtonResult> {
  const { app, partnerId, scope, endpoint } = await ownEndpoint(field(form, "id"));
  const result = button(
    await counted(app, scope, () => replayFailedSince(app, endpoint.id, endpoint.createdAt, partnerId)),
  );
  revalidatePath("/webhooks", "layout");
  return result;
}

export async function removeMemberAction(form: FormData): Promise<ButtonResult> {
  const { app, partnerId, scope, user } = await requireOwner();
  // The button exists only for members; anything else (a crafted post) removes nothing.
  const result = button(
    await counted(app, scope, () =>
      removeMember(app.db, partnerId, user.id, field(form, "id")).catch((error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
      }),
    ),
  );
  revalidatePath("/team");
  return result;
}

export async function inviteAction(_: ActionState, form: FormData): Promise<ActionState> {
  const { app, partnerId, scope, user } = await requireOwner();
  const email = field(form, "email");
  let made: { done: string } | { refused: string };
  try {
    made = await counted(app, scope, () => createInvitation(app.db, partnerId, user.id, email || undefined));
  } catch (error) {
    if (error instanceof DomainError)
      return { error: `${error.detail} Or leave it empty.`, values: { email: email.slice(0, 320) } };
    throw error;
  }
  if ("refused" in made) return { error: made.refused, values: { email: email.slice(0, 320) } };
  const token = made.done;
  revalidatePath("/team");
  return { link: `/invite/${token}` };
}

export async function withdrawInvitationAction(form: FormData): Promise<ButtonResult> {
  const { app, partnerId, scope } = await requireOwner();
  const result = button(await counted(app, scope, () => withdrawInvitation(app.db, partnerId, field(form, "id"))));
  revalidatePath("/team");
  return result;
}
