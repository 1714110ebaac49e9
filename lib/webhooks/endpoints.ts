// Webhook endpoints of a partner in one mode. Every function is scoped by partner and mode, so one
// partner can never reach another's endpoints.
import { and, desc, eq, isNotNull, isNull, not, sql } from "drizzle-orm";
import { z } from "zod";
import { madeWithKey, schema, type DbOrTx } from "@/lib/db";
import {
  DomainError,
  EVENT_TYPES,
  idempotencyConflict,
  isUuid,
  Timestamp,
  type EventType,
  type Scope,
} from "@/lib/domain";
import { generateSecret } from "./secrets";
import { urlProblem } from "@/lib/http/ssrf";
import { requireLiveAccess } from "@/lib/partners/live";

const { webhookEndpoints } = schema;
export type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** How long a rotated-out secret may keep signing (receivers switch over within this): the partner's choice. */
export const RotationOverlap = z.enum(["now", "1h", "24h"], {
  error: "Choose how long the current secret keeps signing.",
});
export type RotationOverlap = z.infer<typeof RotationOverlap>;
export const ROTATION_OVERLAPS: Record<RotationOverlap, number> = { now: 0, "1h": 3600_000, "24h": 24 * 3600_000 };

/** An endpoint as partners see it (the API and the OpenAPI document); its secret is never listed. */
export const WebhookEndpoint = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    event_types: z.array(z.enum(EVENT_TYPES)).meta({
      description:
        "The events sent to this endpoint (`webhook.test` always is). An endpoint created without `event_types` receives every type, types added later included.",
    }),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export function toEndpoint(e: EndpointRow): WebhookEndpoint {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    event_types: e.eventTypes ?? [...EVENT_TYPES],
    enabled: e.enabled,
    disabled_reason: e.disabledReason,
    created_at: e.createdAt.toISOString(),
  };
}

const active = (scope: Scope) =>
  and(
    eq(webhookEndpoints.partnerId, scope.partnerId),
    eq(webhookEndpoints.mode, scope.mode),
    isNull(webhookEndpoints.deletedAt),
  );

export interface EndpointRules {
  allowPrivate: boolean;
  /** Active endpoints a partner may have per mode. */
  maxEndpoints: number;
}

export interface EndpointInput {
  url: string;
  description?: string | null;
  /** Omitted: every type, types added later included. */
  event_types?: EventType[];
}

/** The URL as stored (trimmed), refused when the SSRF rules or the mode's scheme rule forbid it. */
function checkedUrl(url: string, scope: Scope, rules: Pick<EndpointRules, "allowPrivate">): string {
  const trimmed = url.trim();
  const problem = urlProblem(trimmed, scope.mode, rules.allowPrivate);
  if (problem)
    throw new DomainError("validation_error", `The URL ${problem}.`, [
      { pointer: "/url", detail: `The URL ${problem}.` },
    ]);
  return trimmed;
}

/** Event types as stored: each once; null for every type, types added later included. */
const eventTypesOf = (types: readonly EventType[] | null | undefined) => (types ? [...new Set(types)] : null);

/** Enabling forgets the run of failures (a fresh five days); disabling says why. */
const enabledChange = (enabled: boolean, reason: string | null) =>
  enabled ? { enabled: true, disabledReason: null, failingSince: null } : { enabled: false, disabledReason: reason };

/** An Idempotency-Key sent with a create, and a hash of what the request asked for. */
export interface IdempotentRequest {
  key: string;
  requestHash: string;
}

/** A create's replay whose first answer cannot be given again: its endpoint `since` changed. */
const idempotencyGone = (since: string) =>
  new DomainError("validation_error", `The endpoint this Idempotency-Key created ${since}: its first answer is gone.`, [
    { header: "Idempotency-Key", detail: `its endpoint ${since} since: send a new key for a new endpoint` },
  ]);

/**
 * A new endpoint and its secret; with an Idempotency-Key used within 24 h for the same request, the
 * endpoint that request created (its secret too) and nothing new: the caller answers both alike. A
 * replay after that endpoint was deleted or its secret rotated is refused (422) instead.
 */
export async function createEndpoint(
  db: DbOrTx,
  scope: Scope,
  input: EndpointInput,
  rules: EndpointRules,
  idempotent: IdempotentRequest | null = null,
): Promise<{ endpoint: EndpointRow; secret: string; created: boolean }> {
  const url = checkedUrl(input.url, scope, rules);
  const secret = generateSecret();
  return db.transaction(async (tx) => {
    // Serialises creates of one partner and mode, so concurrent ones cannot pass the cap together.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`webhook-endpoints:${scope.partnerId}:${scope.mode}`}, 0))`,
    );
    const priorId = idempotent && (await madeWithKey(tx, webhookEndpoints, scope, idempotent.key));
    if (priorId) {
      const [prior] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, priorId));
      if (prior!.requestHash !== idempotent!.requestHash) throw idempotencyConflict("endpoint");
      // The first answer held the secret it was created with: never another (a rotated one, which the
      // API otherwise never shows), nor an endpoint deleted since as if it were new.
      const since = prior!.deletedAt ? "was deleted" : prior!.secretRotatedAt ? "had its secret rotated" : null;
      if (since) throw idempotencyGone(since);
      return { endpoint: prior!, secret: prior!.secret, created: false };
    }
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookEndpoints)
      .where(active(scope));
    if (n >= rules.maxEndpoints) {
      const detail = `At most ${rules.maxEndpoints} webhook endpoints per mode: delete one you no longer use first.`;
      throw new DomainError("validation_error", detail, [{ pointer: "/url", detail }]);
    }
    const [endpoint] = await tx
      .insert(webhookEndpoints)
      .values({
        partnerId: scope.partnerId,
        mode: scope.mode,
        url,
        description: input.description?.trim() || null,
        eventTypes: eventTypesOf(input.event_types),
        secret,
        idempotencyKey: idempotent?.key ?? null,
        requestHash: idempotent?.requestHash ?? null,
      })
      .returning();
    return { endpoint: endpoint!, secret, created: true };
  });
}

/** What an update may change; a member left out stays as it is. */
export interface EndpointChanges {
  url?: string;
  /** Null or blank: no description. */
  description?: string | null;
  /** Null: every type, types added later included. */
  event_types?: EventType[] | null;
  /** False disables the endpoint as the partner's choice; true enables it again. */
  enabled?: boolean;
}

/**
 * Changes an endpoint's URL, description or event types, with create's URL rules (the SSRF check,
 * https in live mode). Null when the id names no active endpoint of this partner and mode.
 */
export async function updateEndpoint(
  db: DbOrTx,
  scope: Scope,
  id: string,
  changes: EndpointChanges,
  rules: Pick<EndpointRules, "allowPrivate">,
): Promise<EndpointRow | null> {
  if (!isUuid(id)) return null;
  const set: Partial<typeof webhookEndpoints.$inferInsert> = {};
  if (changes.url !== undefined) set.url = checkedUrl(changes.url, scope, rules);
  if (changes.description !== undefined) set.description = changes.description?.trim() || null;
  if (changes.event_types !== undefined) set.eventTypes = eventTypesOf(changes.event_types);
  if (changes.enabled !== undefined) Object.assign(set, enabledChange(changes.enabled, "disabled_by_partner"));
  // Nothing to change: the endpoint as it is (an update statement needs a column to set).
  if (!Object.keys(set).length) return getEndpoint(db, scope, id);
  // Pending deliveries and retries read the row when they are sent, so they go to the new URL.
  const [row] = await db
    .update(webhookEndpoints)
    .set(set)
    .where(and(eq(webhookEndpoints.id, id), active(scope)))
    .returning();
  return row ?? null;
}

export async function listEndpoints(db: DbOrTx, scope: Scope): Promise<EndpointRow[]> {
  return db.select().from(webhookEndpoints).where(active(scope)).orderBy(desc(webhookEndpoints.createdAt));
}

export async function getEndpoint(db: DbOrTx, scope: Scope, id: string): Promise<EndpointRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), active(scope)));
  return row ?? null;
}

export async function deleteEndpoint(db: DbOrTx, scope: Scope, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .update(webhookEndpoints)
    .set({ deletedAt: new Date(), enabled: false, disabledReason: "deleted" })
    .where(and(eq(webhookEndpoints.id, id), active(scope)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

export interface RotationOptions {
  /** How long the current secret keeps signing beside the new one (24 h unless chosen). */
  overlap?: RotationOverlap;
  /**
   * An earlier rotation's overlap is still open: its previous secret (the one receivers may still
   * have deployed) stops signing now. Without this such a rotation is refused.
   */
  endOpenOverlap?: boolean;
}

export type Rotation =
  | { rotated: true; secret: string; previousSecretExpiresAt: Date | null }
  | { rotated: false; reason: "not_found" }
  | { rotated: false; reason: "overlap_open"; overlapEndsAt: Date };

/**
 * New secret now; the current one keeps signing for the chosen overlap so receivers switch without
 * losing events. While an earlier overlap is open, a rotation would silently retire the secret a
 * receiver may still use, so it is refused unless the partner says to end that overlap.
 */
export async function rotateSecret(
  db: DbOrTx,
  scope: Scope,
  id: string,
  options: RotationOptions = {},
  now = new Date(),
): Promise<Rotation> {
  await requireLiveAccess(db, scope);
  if (!isUuid(id)) return { rotated: false, reason: "not_found" };
  const secret = generateSecret();
  const overlapMs = ROTATION_OVERLAPS[options.overlap ?? "24h"];
  const overlapOpen = and(
    isNotNull(webhookEndpoints.previousSecret),
    sql`${webhookEndpoints.previousSecretExpiresAt} > ${now.toISOString()}::timestamptz`,
  );
  // One statement: the right-hand side reads the row as it was, so two rotations racing each
  // other still leave a previous secret that was really in use, and the overlap check holds.
  const rows = await db
    .update(webhookEndpoints)
    .set(
      overlapMs
        ? {
            secret,
            secretRotatedAt: now,
            previousSecret: sql`${webhookEndpoints.secret}`,
            previousSecretExpiresAt: new Date(now.getTime() + overlapMs),
          }
        : { secret, secretRotatedAt: now, previousSecret: null, previousSecretExpiresAt: null },
    )
    .where(and(eq(webhookEndpoints.id, id), active(scope), options.endOpenOverlap ? undefined : not(overlapOpen!)))
    .returning({ expiresAt: webhookEndpoints.previousSecretExpiresAt });
  if (rows.length) return { rotated: true, secret, previousSecretExpiresAt: rows[0]!.expiresAt };
  const endpoint = await getEndpoint(db, scope, id);
  return endpoint?.previousSecretExpiresAt && !options.endOpenOverlap
    ? { rotated: false, reason: "overlap_open", overlapEndsAt: endpoint.previousSecretExpiresAt }
    : { rotated: false, reason: "not_found" };
}

/** Ends a rotation's overlap now: only the current secret signs from the next attempt on. */
export async function expirePreviousSecret(db: DbOrTx, scope: Scope, id: string): Promise<boolean> {
  await requireLiveAccess(db, scope);
  if (!isUuid(id)) return false;
  const rows = await db
    .update(webhookEndpoints)
    .set({ previousSecret: null, previousSecretExpiresAt: null })
    .where(and(eq(webhookEndpoints.id, id), active(scope), isNotNull(webhookEndpoints.previousSecret)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** Secrets that sign now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(e: EndpointRow, now = new Date()): string[] {
  return e.previousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt > now
    ? [e.secret, e.previousSecret]
    : [e.secret];
}

/** Enable (clearing the failure streak) or disable with a reason. Partner-scoped, or any endpoint for operators. */
export async function setEnabled(
  db: DbOrTx,
  id: string,
  enabled: boolean,
  reason: string | null,
  scope?: Scope,
): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .update(webhookEndpoints)
    .set(enabledChange(enabled, reason))
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt), scope ? active(scope) : undefined))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}
