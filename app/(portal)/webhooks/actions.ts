"use server";

// The Webhooks pages' actions: FormData → the command's schema → the command (lib/webhooks/commands.ts).
// Endpoint writes parse with the API's request schema, so the portal accepts exactly what the API
// accepts; the portal's own writes (secrets, test events, replays) are commands built the same way,
// counted on the account's budget and recorded in the security history. Each asks its entry of
// PORTAL_ACTIONS first.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { accountWriter, memberFor, type PartnerContext } from "@/server/session";
import type { Writer } from "@/lib/audit";
import { EVENT_TYPES, parseBody, type PortalAction } from "@/lib/domain";
import { MAX_URL_LENGTH } from "@/lib/http/ssrf";
import { unlessRefused } from "@/lib/rate-limit";
import { getEndpoint, signingSecrets, type EndpointRow } from "@/lib/webhooks/endpoints";
import {
  addEndpoint,
  changeEndpoint,
  CreateWebhookEndpointInput,
  expireOldSecret,
  removeEndpoint,
  replayFailed,
  replayOne,
  RotateSecretInput,
  rotateEndpointSecret,
  sendEndpointTest,
  UpdateWebhookEndpointInput,
} from "@/lib/webhooks/commands";
import type { ButtonResult } from "../../_components/action-button";
import { attempt, field, type ActionState } from "../../_components/form-action";

/** Every page of the feature shows endpoints or their deliveries. */
const changed = () => revalidatePath("/webhooks", "layout");

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
  const { app, scope, endpoint } = ctx;
  return attempt(async () => {
    const input = parseBody(RotateSecretInput, {
      overlap: field(form, "overlap"),
      end_open_overlap: field(form, "end_overlap") === "yes",
    });
    const by = await accountWriter(ctx);
    const made = await unlessRefused(() => rotateEndpointSecret(app, scope, by, endpoint, input));
    if ("refused" in made) return { error: made.refused };
    const rotation = made.done;
    changed();
    if (rotation.rotated) return { expiresAt: rotation.previousSecretExpiresAt?.toISOString() ?? "now" };
    if (rotation.reason === "not_found") return { error: "This endpoint was deleted meanwhile." };
    const until = rotation.overlapEndsAt.toISOString().slice(0, 16).replace("T", " ");
    return {
      error: `An earlier rotation's previous secret still signs until ${until} UTC. Confirm that it stops signing now to rotate again.`,
    };
  });
}

/** Ends the rotation overlap now: the old secret stops signing from the next attempt. */
export async function expireOldSecretAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await ownEndpoint("expireOldSecret", field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope, endpoint } = ctx;
  const by = await accountWriter(ctx);
  const made = await unlessRefused(() => expireOldSecret(app, scope, by, endpoint));
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

/** A button of an endpoint's panel: the member allowed `action` runs `command` on the endpoint of their scope. */
async function onEndpoint(
  action: PortalAction,
  form: FormData,
  command: (ctx: PartnerContext, by: Writer, endpoint: EndpointRow) => Promise<unknown>,
): Promise<ButtonResult> {
  const ctx = await ownEndpoint(action, field(form, "id"));
  if ("refused" in ctx) return { error: ctx.refused };
  const by = await accountWriter(ctx);
  return pressed(unlessRefused(() => command(ctx, by, ctx.endpoint)));
}

export async function sendTestEventAction(form: FormData): Promise<ButtonResult> {
  return onEndpoint("sendTestEvent", form, (ctx, by, endpoint) => sendEndpointTest(ctx.app, ctx.scope, by, endpoint));
}

export async function replayDeliveryAction(form: FormData): Promise<ButtonResult> {
  const ctx = await memberFor("replayDelivery");
  if ("refused" in ctx) return { error: ctx.refused };
  const by = await accountWriter(ctx);
  const answer = await pressed(unlessRefused(() => replayOne(ctx.app, ctx.scope, by, field(form, "id"))));
  // A property's page lists its deliveries too.
  revalidatePath("/properties", "layout");
  return answer;
}

export async function replayFailedAction(form: FormData): Promise<ButtonResult> {
  return onEndpoint("replayFailed", form, (ctx, by, endpoint) => replayFailed(ctx.app, ctx.scope, by, endpoint));
}
