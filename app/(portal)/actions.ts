"use server";

// Portal actions: thin wrappers that check the session, the member's role and the scope, then call
// the same lib/ code as the API. Every one re-checks the user and their role (lib/domain/roles.ts,
// by the action's entry in PORTAL_ACTIONS): a server action is a public endpoint.
import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { signOut } from "@/server/auth";
import { actorOf, memberFor, requirePartner, requireUser, MODE_COOKIE, type PortalContext } from "@/server/session";
import type { AuditAction, AuditEntry } from "@/lib/audit";
import { countedChange, recordedChange } from "@/server/recorded";
import type { DbOrTx } from "@/lib/db";
import { createApiKey, keyNamed, revokeApiKey, rollApiKey, ROLL_EXPIRIES } from "@/lib/api-keys";
import type { ButtonResult } from "../_components/action-button";
import {
  can,
  DomainError,
  EVENT_TYPES,
  hasControl,
  parseBody,
  TEAM_ROLES,
  whereOf,
  type PortalAction,
  type TeamRole,
  type WriteBudget,
} from "@/lib/domain";
import {
  expirePreviousSecret,
  getEndpoint,
  ROTATION_OVERLAPS,
  rotateSecret,
  type RotationOverlap,
  signingSecrets,
} from "@/lib/webhooks/endpoints";
import {
  addEndpoint,
  changeEndpoint,
  CreateWebhookEndpointInput,
  endpointNamed,
  removeEndpoint,
  UpdateWebhookEndpointInput,
} from "@/lib/webhooks/commands";
import { createProperty, CreatePropertyInput } from "@/lib/properties";
import { hasLiveAccess, requestLiveAccess } from "@/lib/partners/live";
import { accountBucket, budgetOn, rateLimitBucket, unlessRefused } from "@/lib/rate-limit";
import { replayDelivery, replayFailedSince, sendTestEvent } from "@/lib/webhooks/replay";
import { changeRole, createInvitation, removeMember, withdrawInvitation } from "@/lib/auth/team";
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
  const { app, partnerId, user } = await requirePartner();
  const mode = modeOf(form);
  // Without live access there is no live mode to switch to: the request form instead (for a role that sees it).
  if (mode === "live" && !(await hasLiveAccess(app.db, partnerId)))
    return can(user.role, "keys") ? redirect("/keys#live-access") : undefined;
  (await cookies()).set(MODE_COOKIE, mode, {
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
  const ctx = await requireUser();
  const { user, sessionId } = ctx;
  await recorded(
    ctx,
    (tx) => endSession(tx, user.id, sessionId),
    () => ({ partnerId: user.partnerId, action: "sign_out", target: null }),
  );
  await signOut({ redirectTo: "/sign-in" });
}

/**
 * Ends one of the user's other sessions (a browser left signed in elsewhere), or all of them. Not
 * counted against a write budget: whoever spent it must not keep the user from ending a session.
 */
export async function endSessionAction(form: FormData): Promise<ButtonResult> {
  const ctx = await requireUser();
  const { user, sessionId } = ctx;
  const id = field(form, "id");
  if (id === sessionId) return { error: "This is the session you are using: sign out instead." };
  const ended = await recorded(
    ctx,
    (tx) => endSession(tx, user.id, id),
    (done) =>
      done ? { partnerId: user.partnerId, action: "session.ended", target: null, detail: { session: id } } : null,
  );
  revalidatePath("/", "layout");
  return ended ? undefined : { error: "That session had already ended." };
}

export async function endOtherSessionsAction(): Promise<ButtonResult> {
  const ctx = await requireUser();
  const { user, sessionId } = ctx;
  await recorded(
    ctx,
    (tx) => endOtherSessions(tx, user.id, sessionId),
    (ended) =>
      ended ? { partnerId: user.partnerId, action: "session.ended_all_others", target: null, detail: { ended } } : null,
  );
  revalidatePath("/", "layout");
  return undefined;
}

export async function createKeyAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("createKey");
  if ("refused" in ctx) return { error: ctx.refused };
  const { partnerId } = ctx;
  const name = field(form, "name");
  if (!name) return { error: "Give the key a name, e.g. the system that will use it." };
  if (hasControl(name) || name.length > 100)
    return {
      error: "The name can have at most 100 characters and no control characters.",
      values: { name: name.slice(0, 100) },
    };
  const mode = modeOf(form);
  // Refused too: a live key before live access is granted.
  const made = await attempted(
    ctx,
    (tx) => createApiKey(tx, { partnerId, mode, name }),
    ({ apiKey }) => about({ partnerId, mode }, "api_key.created", keyNamed(apiKey)),
  );
  if ("refused" in made) return { error: made.refused, values: { name } };
  revalidatePath("/keys");
  return { key: made.done.key };
}

/** An owner asks Finca for live access: what the organisation is and will do with it. */
export async function requestLiveAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("requestLive");
  if ("refused" in ctx) return { error: ctx.refused };
  const { partnerId, user } = ctx;
  const body = { company: field(form, "company"), contact: field(form, "contact"), use: field(form, "use") };
  const values = {
    company: body.company.slice(0, 200),
    contact: body.contact.slice(0, 200),
    use: body.use.slice(0, 2000),
  };
  const made = await attempted(
    ctx,
    (tx) => requestLiveAccess(tx, partnerId, user, body),
    (request) => ({ partnerId, action: "live_access.requested", target: request.company }),
  );
  if ("refused" in made) return { error: made.refused, values };
  revalidatePath("/keys");
  return {};
}

/** Rolls a key: a new one now, the old one until the chosen expiry. */
export async function rollKeyAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("rollKey");
  if ("refused" in ctx) return { error: ctx.refused };
  const { partnerId } = ctx;
  const expiry = field(form, "expires_in");
  if (!Object.hasOwn(ROLL_EXPIRIES, expiry)) return { error: "Choose when the old key stops working." };
  const made = await counted(
    ctx,
    (tx) =>
      rollApiKey(tx, {
        id: field(form, "id"),
        partnerId,
        expiresInSeconds: ROLL_EXPIRIES[expiry as keyof typeof ROLL_EXPIRIES],
      }),
    (rolled) =>
      rolled &&
      about(rolled.rolled, "api_key.rolled", keyNamed(rolled.rolled), {
        new_key: `${rolled.apiKey.visibleStart}…`,
        old_key_expires_at: rolled.rolled.expiresAt!.toISOString(),
      }),
  );
  if ("refused" in made) return { error: made.refused };
  const rolled = made.done;
  if (!rolled)
    return { error: "This key is no longer active: it was revoked, expired or rolled to a shorter expiry meanwhile." };
  revalidatePath("/keys");
  return { key: rolled.key, expiresAt: rolled.rolled.expiresAt!.toISOString() };
}

/**
 * A change and its row in the security history, in one transaction (a row when `entry` says what
 * the change did); the history's log line after the commit.
 */
const recorded = async <T>(
  ctx: PortalContext,
  change: (tx: DbOrTx) => Promise<T>,
  entry: (result: T) => AuditEntry | null,
): Promise<T> => recordedChange(ctx.app, await actorOf(ctx), change, entry);

/**
 * A change only the portal makes (revoke, rotate, test event, replay...): the account's budget
 * spent first (outside the transaction), then the change and its history row.
 */
const counted = async <T>(
  ctx: PortalContext & { scope: Scope },
  change: (tx: DbOrTx) => Promise<T>,
  entry: (result: T) => AuditEntry | null,
) => countedChange(ctx.app, await actorOf(ctx), accountBudget(ctx.app, ctx.scope), change, entry);

/**
 * `counted`, for a change the domain may refuse on its own terms too (a member's role, the last
 * owner, a live key before live access, a field): every refusal as the text the form or button
 * shows, and nothing changed.
 */
const attempted = async <T>(
  ctx: PortalContext & { scope: Scope },
  change: (tx: DbOrTx) => Promise<T>,
  entry: (result: T) => AuditEntry | null,
): Promise<{ done: T } | { refused: string }> => {
  try {
    return await counted(ctx, change, entry);
  } catch (error) {
    if (error instanceof DomainError) return { refused: problemText(error) };
    throw error;
  }
};

/** A history entry of the scope's partner, its mode in the detail. */
const about = (scope: Scope, action: AuditAction, target: string | null, detail: Record<string, string> = {}) => ({
  partnerId: scope.partnerId,
  action,
  target,
  detail: { mode: scope.mode, ...detail },
});
/** The portal's writer of endpoint commands: this user, on the account's budget. */
const writer = async (ctx: PortalContext & { scope: Scope }) => ({
  actor: await actorOf(ctx),
  budget: accountBudget(ctx.app, ctx.scope),
});

/** What a button shows: nothing, or the refusal. */
const button = (made: { done: unknown } | { refused: string }): ButtonResult =>
  "refused" in made ? { error: made.refused } : undefined;

export async function revokeKeyAction(form: FormData): Promise<ButtonResult> {
  const ctx = await memberFor("revokeKey");
  if ("refused" in ctx) return { error: ctx.refused };
  const result = button(
    await counted(
      ctx,
      (tx) => revokeApiKey(tx, field(form, "id"), ctx.partnerId),
      (key) => (key ? about(key, "api_key.revoked", keyNamed(key)) : null),
    ),
  );
  revalidatePath("/keys");
  return result;
}

/** The API's create path from the portal: same rate limit, same checks, same messages. */
export async function registerPropertyAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("registerProperty");
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope } = ctx;
  const typed = String(form.get("cadastral_reference") ?? "");
  let id: string;
  try {
    // Counted on the partner's write budget, as the API's create: the integration shares it.
    const budget = budgetOn(app.rateLimiter, rateLimitBucket(scope));
    const input = parseBody(CreatePropertyInput, { cadastral_reference: typed });
    id = (await createProperty(app, scope, budget, input)).property.property_id;
  } catch (error) {
    if (error instanceof DomainError) return { error: problemText(error), values: { cadastral_reference: typed } };
    throw error;
  }
  revalidatePath("/properties");
  redirect(`/properties/${id}`);
}

export async function createEndpointAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("createEndpoint");
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope } = ctx;
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
    const input = parseBody(CreateWebhookEndpointInput, {
      url: field(form, "url"),
      ...(field(form, "description") && { description: field(form, "description") }),
      ...(eventTypes && { event_types: eventTypes }),
    });
    const { secret } = await addEndpoint(app, scope, await writer(ctx), input);
    revalidatePath("/webhooks", "layout");
    return { secret };
  } catch (error) {
    if (error instanceof DomainError) return { error: problemText(error), values };
    throw error;
  }
}

/** The member allowed `action`, and the endpoint of their scope it names (or the refusal). */
async function ownEndpoint(action: PortalAction, id: string) {
  const ctx = await memberFor(action);
  if ("refused" in ctx) return ctx;
  const endpoint = await getEndpoint(ctx.app.db, ctx.scope, id);
  if (!endpoint) redirect("/webhooks");
  return { ...ctx, endpoint };
}

/**
 * The API's update from the portal: its request schema and URL rules, counted as a write. An empty
 * description removes it. Success is a state without an error (the form says "Saved").
 */
export async function updateEndpointAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await ownEndpoint("updateEndpoint", field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope, endpoint } = ctx;
  const values = {
    url: field(form, "url").slice(0, MAX_URL_LENGTH + 1),
    description: field(form, "description").slice(0, 501),
  };
  try {
    const changes = parseBody(UpdateWebhookEndpointInput, {
      url: field(form, "url"),
      description: field(form, "description"),
    });
    const updated = await changeEndpoint(app, scope, await writer(ctx), endpoint.id, changes);
    if (!updated) return { error: "This endpoint was deleted meanwhile.", values };
    revalidatePath("/webhooks", "layout");
    return {};
  } catch (error) {
    if (error instanceof DomainError) return { error: problemText(error), values };
    throw error;
  }
}

/** The signing secrets, fetched only when the partner asks to see them (not in the page's HTML). */
export async function revealSecretAction(
  id: string,
): Promise<{ secrets: { value: string; expiresAt: string | null }[] } | { error: string }> {
  const ctx = await ownEndpoint("revealSecret", id);
  if ("refused" in ctx) return { error: ctx.refused };
  const { endpoint } = ctx;
  const secrets = signingSecrets(endpoint).map((value, i) => ({
    value,
    expiresAt: i === 0 ? null : (endpoint.previousSecretExpiresAt?.toISOString() ?? null),
  }));
  return { secrets };
}

/** Rotates and says what happened: the old secret's end of overlap, shown on the page. */
export async function rotateSecretAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await ownEndpoint("rotateSecret", field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const { scope, endpoint } = ctx;
  const overlap = field(form, "overlap");
  if (!Object.hasOwn(ROTATION_OVERLAPS, overlap)) return { error: "Choose how long the current secret keeps signing." };
  const made = await counted(
    ctx,
    (tx) =>
      rotateSecret(tx, scope, endpoint.id, {
        overlap: overlap as RotationOverlap,
        endOpenOverlap: field(form, "end_overlap") === "yes",
      }),
    (rotation) =>
      rotation.rotated ? about(scope, "webhook_secret.rotated", endpointNamed(endpoint), { overlap }) : null,
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
  const ctx = await ownEndpoint("expireOldSecret", field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const { scope, endpoint } = ctx;
  const made = await counted(
    ctx,
    (tx) => expirePreviousSecret(tx, scope, endpoint.id),
    (expired) => (expired ? about(scope, "webhook_secret.expired", endpointNamed(endpoint)) : null),
  );
  revalidatePath("/webhooks", "layout");
  if ("refused" in made) return { error: made.refused };
  return made.done ? { expiresAt: "now" } : { error: "There is no old secret left to expire." };
}

export async function toggleEndpointAction(form: FormData): Promise<ButtonResult> {
  const ctx = await ownEndpoint("toggleEndpoint", field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope, endpoint } = ctx;
  // The API's update of `enabled`: disabling says it was the partner's choice; enabling forgets the failures.
  const by = await writer(ctx);
  const result = button(
    await unlessRefused(() => changeEndpoint(app, scope, by, endpoint.id, { enabled: !endpoint.enabled })),
  );
  revalidatePath("/webhooks", "layout");
  return result;
}

export async function deleteEndpointAction(form: FormData): Promise<ButtonResult> {
  const ctx = await ownEndpoint("deleteEndpoint", field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope, endpoint } = ctx;
  const by = await writer(ctx);
  const result = button(await unlessRefused(() => removeEndpoint(app, scope, by, endpoint.id)));
  revalidatePath("/webhooks", "layout");
  return result;
}

export async function sendTestEventAction(form: FormData): Promise<ButtonResult> {
  const ctx = await ownEndpoint("sendTestEvent", field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope, endpoint } = ctx;
  const result = button(
    await counted(
      ctx,
      (tx) => sendTestEvent({ ...app, db: tx }, endpoint),
      () => about(scope, "webhook.test_sent", endpointNamed(endpoint)),
    ),
  );
  revalidatePath("/webhooks", "layout");
  return result;
}

export async function replayDeliveryAction(form: FormData): Promise<ButtonResult> {
  const ctx = await memberFor("replayDelivery");
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope } = ctx;
  const id = field(form, "id");
  const result = button(
    await counted(
      ctx,
      (tx) => replayDelivery({ ...app, db: tx }, id, scope),
      (replayed) => (replayed ? about(scope, "webhook.replayed", null, { delivery: id }) : null),
    ),
  );
  revalidatePath("/webhooks", "layout");
  revalidatePath("/properties", "layout");
  return result;
}

export async function replayFailedAction(form: FormData): Promise<ButtonResult> {
  const ctx = await ownEndpoint("replayFailed", field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope, endpoint } = ctx;
  const result = button(
    await counted(
      ctx,
      (tx) => replayFailedSince({ ...app, db: tx }, endpoint.id, endpoint.createdAt, scope),
      (count) => about(scope, "webhook.replayed_failed", endpointNamed(endpoint), { deliveries: String(count) }),
    ),
  );
  revalidatePath("/webhooks", "layout");
  return result;
}

export async function removeMemberAction(form: FormData): Promise<ButtonResult> {
  const ctx = await memberFor("removeMember");
  if ("refused" in ctx) return { error: ctx.refused };
  const { partnerId, user } = ctx;
  const made = await attempted(
    ctx,
    (tx) => removeMember(tx, partnerId, user, field(form, "id")),
    (removed) => ({ partnerId, action: "member.removed", target: removed.email }),
  );
  revalidatePath("/team");
  return button(made);
}

const roleOf = (form: FormData): TeamRole | null => {
  const role = field(form, "role");
  return (TEAM_ROLES as readonly string[]).includes(role) ? (role as TeamRole) : null;
};

/** Gives a member another role (owners and admins; owners only to or from owner; an owner stays). */
export async function changeRoleAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("changeRole");
  if ("refused" in ctx) return { error: ctx.refused };
  const { partnerId, user } = ctx;
  const role = roleOf(form);
  if (!role) return { error: `Choose one of the roles: ${TEAM_ROLES.join(", ")}.` };
  const made = await attempted(
    ctx,
    (tx) => changeRole(tx, partnerId, user, field(form, "id"), role),
    (changed) =>
      changed
        ? {
            partnerId,
            action: "member.role_changed",
            target: changed.email,
            detail: { from: changed.from, to: changed.to },
          }
        : null,
  );
  revalidatePath("/team");
  return "refused" in made ? { error: made.refused } : {};
}

export async function inviteAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("invite");
  if ("refused" in ctx) return { error: ctx.refused };
  const { partnerId, user } = ctx;
  const email = field(form, "email");
  const role = roleOf(form);
  const values = { email: email.slice(0, 320), role: role ?? "developer" };
  if (!role) return { error: `Choose one of the roles: ${TEAM_ROLES.join(", ")}.`, values };
  let made: { done: string } | { refused: string };
  try {
    made = await counted(
      ctx,
      (tx) => createInvitation(tx, partnerId, user, { email: email || undefined, role }),
      () => ({ partnerId, action: "invitation.sent", target: email || "a link for anyone", detail: { role } }),
    );
  } catch (error) {
    if (error instanceof DomainError)
      return { error: error.code === "forbidden" ? error.detail : `${error.detail} Or leave it empty.`, values };
    throw error;
  }
  if ("refused" in made) return { error: made.refused, values };
  const token = made.done;
  revalidatePath("/team");
  return { link: `/invite/${token}` };
}

export async function withdrawInvitationAction(form: FormData): Promise<ButtonResult> {
  const ctx = await memberFor("withdrawInvitation");
  if ("refused" in ctx) return { error: ctx.refused };
  const { partnerId, user } = ctx;
  const result = button(
    await counted(
      ctx,
      (tx) => withdrawInvitation(tx, partnerId, user, field(form, "id")),
      (withdrawn) =>
        withdrawn
          ? { partnerId, action: "invitation.withdrawn", target: withdrawn.email ?? "a link for anyone" }
          : null,
    ),
  );
  revalidatePath("/team");
  return result;
}
