// The writes of webhook endpoints a partner makes, from the API or the portal: each takes its input
// as parsed by the API's request schema (both sides parse with it), counts the write and applies the
// configured rules (the SSRF check, https in live mode, the cap per mode), so both accept and refuse alike.
// The portal's own writes (secrets, test events, replays) are built the same way: role, budget, then
// the change and its row in the security history in one transaction.
import { createHash } from "node:crypto";
import { z } from "zod";
import { EVENT_TYPES, type Scope } from "@/lib/domain";
import { MAX_URL_LENGTH } from "@/lib/http/ssrf";
import type { DbOrTx } from "@/lib/db";
import { requireLiveAccess } from "@/lib/partners/live";
import {
  audited,
  authorizeActor,
  mayWrite,
  type AuditAction,
  type AuditEntry,
  type AuditLog,
  type Writer,
} from "@/lib/audit";
import type { Queue } from "@/lib/queue";
import {
  createEndpoint,
  deleteEndpoint,
  expirePreviousSecret,
  getEndpoint,
  rotateSecret,
  RotationOverlap,
  updateEndpoint,
  type EndpointRow,
  type Rotation,
} from "./endpoints";
import { replayDelivery, replayFailedSince, sendTestEvent } from "./replay";

export const CreateWebhookEndpointInput = z
  .strictObject({
    url: z.string().max(MAX_URL_LENGTH).meta({ example: "https://example.com/webhooks/finca" }),
    // PostgreSQL text cannot hold a NUL.
    description: z
      .string()
      .max(500)
      .refine((d) => !d.includes("\u0000"), "must not contain NUL characters")
      .optional(),
    event_types: z.array(z.enum(EVENT_TYPES)).min(1).optional().meta({
      description:
        "The events to send here; default every type, types added later included. `webhook.test` is always sent.",
    }),
  })
  .meta({ id: "CreateWebhookEndpointRequest" });
export type CreateWebhookEndpointInput = z.output<typeof CreateWebhookEndpointInput>;

// Create's own member schemas: an update accepts exactly what a create would, member by member.
const endpointMember = CreateWebhookEndpointInput.shape;

/** At least one member: an empty update is a mistake rather than a no-op worth a write. */
export const UpdateWebhookEndpointInput = z
  .strictObject({
    url: endpointMember.url.optional(),
    description: endpointMember.description
      .unwrap()
      .nullable()
      .optional()
      .meta({ description: "Null or an empty string removes the description." }),
    event_types: endpointMember.event_types.unwrap().nullable().optional().meta({
      description:
        "Replaces the events sent here; null: every type, types added later included. `webhook.test` is always sent.",
    }),
    enabled: z.boolean().optional().meta({
      description:
        "`false` disables the endpoint (nothing is sent to it; `disabled_reason` is `disabled_by_partner`); `true` enables it again and forgets its run of failures.",
    }),
  })
  .refine((body) => Object.keys(body).length > 0, {
    error: "must name at least one of url, description, event_types, enabled",
    // Only a body otherwise valid: one with nothing but unknown members is told just that.
    when: (payload) => payload.issues.length === 0,
  })
  .meta({ id: "UpdateWebhookEndpointRequest", minProperties: 1 });
export type UpdateWebhookEndpointInput = z.output<typeof UpdateWebhookEndpointInput>;

/** What the endpoint commands need: the database, the configured rules, the history's log. */
export interface EndpointDeps {
  db: DbOrTx;
  config: { FINCA_WEBHOOKS_ALLOW_PRIVATE: boolean; WEBHOOK_MAX_ENDPOINTS: number };
  logger: AuditLog;
}

/**
 * A member whose role may not change endpoints is refused before anything is counted (a key may), as
 * is a live change of an organisation without live access.
 */
const mayChange = async (deps: EndpointDeps, scope: Scope, by: Writer) => {
  authorizeActor(by.actor, "webhooks");
  await requireLiveAccess(deps.db, scope);
};

/**
 * An endpoint as the security history names it: its host and id. Never its whole URL: a path or a
 * query may hold the receiver's own secret (a Slack-style hook is one), and the history is logged.
 */
const endpointNamed = (endpoint: Pick<EndpointRow, "id" | "url">): string => {
  let host = "";
  try {
    host = new URL(endpoint.url).host;
  } catch {
    // Stored URLs were checked when written; a bad one is named by its id alone.
  }
  return host ? `${host} (${endpoint.id})` : endpoint.id;
};

const entry = (
  scope: Scope,
  action: AuditAction,
  endpoint: EndpointRow,
  detail: Record<string, string> = {},
): AuditEntry => ({
  partnerId: scope.partnerId,
  action,
  target: endpointNamed(endpoint),
  detail: { mode: scope.mode, ...detail },
});

/**
 * A new endpoint and its signing secret. With an Idempotency-Key, a repeat of the request within
 * 24 h answers that endpoint (its secret too) and creates nothing; the key with another body is a 422.
 */
export async function addEndpoint(
  deps: EndpointDeps,
  scope: Scope,
  by: Writer,
  input: CreateWebhookEndpointInput,
  idempotencyKey: string | null = null,
): Promise<{ endpoint: EndpointRow; secret: string; created: boolean }> {
  await mayChange(deps, scope, by);
  await by.budget();
  const rules = {
    allowPrivate: deps.config.FINCA_WEBHOOKS_ALLOW_PRIVATE,
    maxEndpoints: deps.config.WEBHOOK_MAX_ENDPOINTS,
  };
  // The validated body, in the schema's order: the same request hashes the same however it was spelt.
  const requestHash = createHash("sha256").update(JSON.stringify(input)).digest("hex");
  const idempotent = idempotencyKey ? { key: idempotencyKey, requestHash } : null;
  return audited(deps, by.actor, async (tx) => {
    const made = await createEndpoint(tx, scope, input, rules, idempotent);
    return { result: made, entry: made.created ? entry(scope, "webhook_endpoint.created", made.endpoint) : null };
  });
}

/** The members sent changed, the others kept; null when `id` names no active endpoint of the scope. */
export async function changeEndpoint(
  deps: EndpointDeps,
  scope: Scope,
  by: Writer,
  id: string,
  changes: UpdateWebhookEndpointInput,
): Promise<EndpointRow | null> {
  await mayChange(deps, scope, by);
  await by.budget();
  const action =
    changes.enabled === false
      ? "webhook_endpoint.disabled"
      : changes.enabled === true
        ? "webhook_endpoint.enabled"
        : "webhook_endpoint.updated";
  return audited(deps, by.actor, async (tx) => {
    const row = await updateEndpoint(tx, scope, id, changes, {
      allowPrivate: deps.config.FINCA_WEBHOOKS_ALLOW_PRIVATE,
    });
    const members = Object.keys(changes).join(", ");
    return { result: row, entry: row && entry(scope, action, row, { members }) };
  });
}

/** Deliveries to it stop at once; false when `id` names no active endpoint of the scope. */
export async function removeEndpoint(deps: EndpointDeps, scope: Scope, by: Writer, id: string): Promise<boolean> {
  await mayChange(deps, scope, by);
  await by.budget();
  return audited(deps, by.actor, async (tx) => {
    const endpoint = await getEndpoint(tx, scope, id);
    const deleted = !!endpoint && (await deleteEndpoint(tx, scope, id));
    return { result: deleted, entry: deleted ? entry(scope, "webhook_endpoint.deleted", endpoint) : null };
  });
}

/** A rotation as the portal's form asks it: the overlap chosen, and whether an open overlap ends now. */
export const RotateSecretInput = z.strictObject({ overlap: RotationOverlap, end_open_overlap: z.boolean() });
export type RotateSecretInput = z.output<typeof RotateSecretInput>;

/** What the secret commands need: the database and the history's log. */
export type SecretDeps = Pick<EndpointDeps, "db" | "logger">;
/** What the delivery commands need: the secret commands' and the queue the attempts go to. */
export type DeliveryDeps = SecretDeps & { queue: Queue };

// The secret and delivery commands check role and budget first (`mayWrite`); live access is checked by
// each change itself, in its transaction (after the budget, as the portal always counted them).

/** A new signing secret, the current one kept for the chosen overlap (lib/webhooks/endpoints' `rotateSecret`). */
export async function rotateEndpointSecret(
  deps: SecretDeps,
  scope: Scope,
  by: Writer,
  endpoint: EndpointRow,
  input: RotateSecretInput,
): Promise<Rotation> {
  await mayWrite(by, "webhooks");
  return audited(deps, by.actor, async (tx) => {
    const options = { overlap: input.overlap, endOpenOverlap: input.end_open_overlap };
    const rotation = await rotateSecret(tx, scope, endpoint.id, options);
    const made = rotation.rotated ? entry(scope, "webhook_secret.rotated", endpoint, { overlap: input.overlap }) : null;
    return { result: rotation, entry: made };
  });
}

/** The old secret stops signing now; false when there was none left (or the endpoint is gone). */
export async function expireOldSecret(deps: SecretDeps, scope: Scope, by: Writer, endpoint: EndpointRow) {
  await mayWrite(by, "webhooks");
  return audited(deps, by.actor, async (tx) => {
    const expired = await expirePreviousSecret(tx, scope, endpoint.id);
    return { result: expired, entry: expired ? entry(scope, "webhook_secret.expired", endpoint) : null };
  });
}

/** A `webhook.test` event to the endpoint of the scope, sent now even while it is disabled. */
export async function sendEndpointTest(deps: DeliveryDeps, scope: Scope, by: Writer, endpoint: EndpointRow) {
  await mayWrite(by, "webhooks");
  return audited(deps, by.actor, async (tx) => {
    const event = await sendTestEvent({ ...deps, db: tx }, endpoint);
    return { result: event, entry: entry(scope, "webhook.test_sent", endpoint) };
  });
}

/** One delivery of the scope attempted again now; false when `deliveryId` names none that can be. */
export async function replayOne(deps: DeliveryDeps, scope: Scope, by: Writer, deliveryId: string) {
  await mayWrite(by, "webhooks");
  return audited(deps, by.actor, async (tx) => {
    const done = await replayDelivery({ ...deps, db: tx }, deliveryId, scope);
    const made: AuditEntry | null = done
      ? {
          partnerId: scope.partnerId,
          action: "webhook.replayed",
          target: null,
          detail: { mode: scope.mode, delivery: deliveryId },
        }
      : null;
    return { result: done, entry: made };
  });
}

/** The endpoint's failed deliveries since it was created attempted again (the newest, capped); how many. */
export async function replayFailed(deps: DeliveryDeps, scope: Scope, by: Writer, endpoint: EndpointRow) {
  await mayWrite(by, "webhooks");
  return audited(deps, by.actor, async (tx) => {
    const count = await replayFailedSince({ ...deps, db: tx }, endpoint.id, endpoint.createdAt, scope);
    return { result: count, entry: entry(scope, "webhook.replayed_failed", endpoint, { deliveries: String(count) }) };
  });
}
