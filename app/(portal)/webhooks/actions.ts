"use server";

// The Webhooks pages' actions. Endpoint writes: FormData → the API's request schema → the API's own
// command (lib/webhooks/commands.ts), so the portal accepts exactly what the API accepts. The
// portal's own writes (secrets, test events, replays) are counted on the account's budget and
// recorded with their row in the security history. Each asks its entry of PORTAL_ACTIONS first.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { accountWriter, memberFor, type PartnerContext } from "@/server/session";
import { countedChange } from "@/server/recorded";
import type { App } from "@/server/app";
import type { AuditAction, AuditEntry } from "@/lib/audit";
import type { DbOrTx } from "@/lib/db";
import { EVENT_TYPES, parseBody, type PortalAction, type Scope } from "@/lib/domain";
import { MAX_URL_LENGTH } from "@/lib/http/ssrf";
import { unlessRefused } from "@/lib/rate-limit";
import {
  expirePreviousSecret,
  getEndpoint,
  ROTATION_OVERLAPS,
  rotateSecret,
  signingSecrets,
  type EndpointRow,
  type RotationOverlap,
} from "@/lib/webhooks/endpoints";
import {
  addEndpoint,
  changeEndpoint,
  CreateWebhookEndpointInput,
  endpointNamed,
  removeEndpoint,
  UpdateWebhookEndpointInput,
} from "@/lib/webhooks/commands";
import { replayDelivery, replayFailedSince, sendTestEvent } from "@/lib/webhooks/replay";
import type { ButtonResult } from "../../_components/action-button";
import { attempt, field, type ActionState } from "../../_components/form-action";

/** Every page of the feature shows endpoints or their deliveries. */
const changed = () => revalidatePath("/webhooks", "layout");

/**
 * A write only the portal makes: the account's budget spent first (outside the transaction), then
 * the change and its history row; a spent budget is the refusal shown.
 */
const counted = async <T>(
  ctx: PartnerContext,
  change: (tx: DbOrTx) => Promise<T>,
  entry: (result: T) => AuditEntry | null,
) => {
  const { actor, budget } = await accountWriter(ctx);
  return countedChange(ctx.app, actor, budget, change, entry);
};

/** A history entry of the scope's partner, its mode in the detail. */
const about = (scope: Scope, action: AuditAction, target: string | null, detail: Record<string, string> = {}) => ({
  partnerId: scope.partnerId,
  action,
  target,
  detail: { mode: scope.mode, ...detail },
});

/** What a button shows once its write is made or refused (nothing, or the refusal); the pages refreshed. */
const pressed = async (made: Promise<{ done: unknown } | { refused: string }>): Promise<ButtonResult> => {
  const answer = await made;
  changed();
  return "refused" in answer ? { error: answer.refused } : undefined;
};

/** The member allowed `action`, and the endpoint of their scope it names (or the refusal). */
async function ownEndpoint(action: PortalAction, id: string) {
  const ctx = await memberFor(action);
  if ("refused" in ctx) return ctx;
  const endpoint = await getEndpoint(ctx.app.db, ctx.scope, id);
  if (!endpoint) redirect("/webhooks");
  return { ...ctx, endpoint };
}

/** What was typed, given back after a refusal (bounded: a huge value is refused, not echoed). */
const typedEndpoint = (form: FormData) => ({
  url: field(form, "url").slice(0, MAX_URL_LENGTH + 1),
  description: field(form, "description").slice(0, 501),
  event_types: form.getAll("event_types").map(String).join(",").slice(0, 200),
});

export async function createEndpointAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("createEndpoint");
  if ("refused" in ctx) return { error: ctx.refused };
  const types = form.getAll("event_types").map(String);
  const values = typedEndpoint(form);
  if (!types.length) return { error: "Choose at least one event for the endpoint.", values };
  return attempt(async () => {
    const input = parseBody(CreateWebhookEndpointInput, {
      url: field(form, "url"),
      ...(field(form, "description") && { description: field(form, "description") }),
      // Every box ticked: every type, types added later included (the API's default).
      ...(!EVENT_TYPES.every((t) => types.includes(t)) && { event_types: types }),
    });
    const { secret } = await addEndpoint(ctx.app, ctx.scope, await accountWriter(ctx), input);
    changed();
    return { secret };
  }, values);
}

/**
 * The API's update: its request schema and URL rules, counted as a write. An empty description
 * removes it. Success is a state without an error (the form says "Saved").
 */
export async function updateEndpointAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await ownEndpoint("updateEndpoint", field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const values = typedEndpoint(form);
  return attempt(async () => {
    const input = parseBody(UpdateWebhookEndpointInput, {
      url: field(form, "url"),
      description: field(form, "description"),
    });
    const updated = await changeEndpoint(ctx.app, ctx.scope, await accountWriter(ctx), ctx.endpoint.id, input);
    if (!updated) return { error: "This endpoint was deleted meanwhile.", values };
    changed();
    return {};
  }, values);
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
  changed();
  if (rotation.rotated) return { expiresAt: rotation.previousSecretExpiresAt?.toISOString() ?? "now" };
  if (rotation.reason === "not_found") return { error: "This endpoint was deleted meanwhile." };
  const until = rotation.overlapEndsAt.toISOString().slice(0, 16).replace("T", " ");
  return {
    error: `An earlier rotation's previous secret still signs until ${until} UTC. Confirm that it stops signing now to rotate again.`,
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
  changed();
  if ("refused" in made) return { error: made.refused };
  return made.done ? { expiresAt: "now" } : { error: "There is no old secret left to expire." };
}

/** The API's update of `enabled`: disabling says it was the partner's choice; enabling forgets the failures. */
export async function toggleEndpointAction(form: FormData): Promise<ButtonResult> {
  const ctx = await ownEndpoint("toggleEndpoint", field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope, endpoint } = ctx;
  const by = await accountWriter(ctx);
  return pressed(unlessRefused(() => changeEndpoint(app, scope, by, endpoint.id, { enabled: !endpoint.enabled })));
}

export async function deleteEndpointAction(form: FormData): Promise<ButtonResult> {
  const ctx = await ownEndpoint("deleteEndpoint", field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope, endpoint } = ctx;
  const by = await accountWriter(ctx);
  return pressed(unlessRefused(() => removeEndpoint(app, scope, by, endpoint.id)));
}

/**
 * A button of an endpoint's panel: the member allowed `action` makes a portal-only write on the
 * endpoint of their scope the form names, recorded as `entry` says.
 */
async function onEndpoint<T>(
  action: PortalAction,
  form: FormData,
  change: (deps: Omit<App, "db"> & { db: DbOrTx }, endpoint: EndpointRow, scope: Scope) => Promise<T>,
  entry: (result: T, named: string, scope: Scope) => AuditEntry | null,
): Promise<ButtonResult> {
  const ctx = await ownEndpoint(action, field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope, endpoint } = ctx;
  const made = counted(
    ctx,
    (tx) => change({ ...app, db: tx }, endpoint, scope),
    (result) => entry(result, endpointNamed(endpoint), scope),
  );
  return pressed(made);
}

export async function sendTestEventAction(form: FormData): Promise<ButtonResult> {
  return onEndpoint(
    "sendTestEvent",
    form,
    (deps, endpoint) => sendTestEvent(deps, endpoint),
    (_, named, scope) => about(scope, "webhook.test_sent", named),
  );
}

export async function replayDeliveryAction(form: FormData): Promise<ButtonResult> {
  const ctx = await memberFor("replayDelivery");
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope } = ctx;
  const id = field(form, "id");
  const replayed = counted(
    ctx,
    (tx) => replayDelivery({ ...app, db: tx }, id, scope),
    (done) => (done ? about(scope, "webhook.replayed", null, { delivery: id }) : null),
  );
  const answer = await pressed(replayed);
  // A property's page lists its deliveries too.
  revalidatePath("/properties", "layout");
  return answer;
}

export async function replayFailedAction(form: FormData): Promise<ButtonResult> {
  return onEndpoint(
    "replayFailed",
    form,
    (deps, endpoint, scope) => replayFailedSince(deps, endpoint.id, endpoint.createdAt, scope),
    (count, named, scope) => about(scope, "webhook.replayed_failed", named, { deliveries: String(count) }),
  );
}
