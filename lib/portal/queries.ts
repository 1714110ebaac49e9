// Read models for the portal and the admin console (no business rules here: just views).
import { and, desc, eq, gt, inArray, isNotNull, or, sql } from "drizzle-orm";
import { containsPattern, rowsOf, schema, type Db } from "@/lib/db";
import { isUuid, type Scope } from "@/lib/domain";
import { wirePayload } from "@/lib/webhooks/events";
import { windowUsage } from "@/lib/rate-limit";

const {
  properties,
  enrichmentSources,
  enrichmentAttempts,
  events,
  webhookDeliveries,
  webhookEndpoints,
  webhookAttempts,
  partners,
  users,
  apiKeys,
} = schema;

/** A delivery's state as partners read it: pending with attempts already made is "retrying". */
const deliveryState = sql<
  "succeeded" | "failed" | "retrying" | "pending"
>`case when ${webhookDeliveries.status} = 'pending' and ${webhookDeliveries.attempts} > 0 then 'retrying' else ${webhookDeliveries.status} end`;

/** The partner's figures in one mode: status split, per-source outcomes, deliveries, timing, activity. */
export async function overview(db: Db, scope: Scope) {
  // Deliveries of the scope's endpoints with a status, created on the day `d` of the series below.
  const deliveriesOn = (status: "succeeded" | "failed") => sql`(
    select count(*)::int from ${webhookDeliveries} join ${webhookEndpoints} on ${webhookEndpoints.id} = ${webhookDeliveries.endpointId}
    where ${webhookEndpoints.partnerId} = ${scope.partnerId} and ${webhookEndpoints.mode} = ${scope.mode} and ${webhookDeliveries.status} = ${status}
      and ${webhookDeliveries.createdAt} >= d and ${webhookDeliveries.createdAt} < d + interval '1 day')`;
  const inScope = and(eq(properties.partnerId, scope.partnerId), eq(properties.mode, scope.mode));
  const endpointInScope = and(eq(webhookEndpoints.partnerId, scope.partnerId), eq(webhookEndpoints.mode, scope.mode));
  const [byStatus, bySource, deliveries, timing, daily] = await Promise.all([
    db
      .select({ status: properties.status, n: sql<number>`count(*)::int` })
      .from(properties)
      .where(inScope)
      .groupBy(properties.status),
    db
      .select({ source: enrichmentSources.source, status: enrichmentSources.status, n: sql<number>`count(*)::int` })
      .from(enrichmentSources)
      .innerJoin(properties, eq(properties.id, enrichmentSources.propertyId))
      .where(inScope)
      .groupBy(enrichmentSources.source, enrichmentSources.status),
    db
      .select({ status: deliveryState, n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(endpointInScope)
      .groupBy(deliveryState),
    // Time from registration to the final state, for properties that needed the durable retries
    // or finished inline alike (enriched_at is set for both).
    db
      .select({
        p50: sql<
          number | null
        >`percentile_cont(0.5) within group (order by extract(epoch from ${properties.enrichedAt} - ${properties.createdAt}))`,
        p95: sql<
          number | null
        >`percentile_cont(0.95) within group (order by extract(epoch from ${properties.enrichedAt} - ${properties.createdAt}))`,
        finished: sql<number>`count(*)::int`,
      })
      .from(properties)
      .where(and(inScope, isNotNull(properties.enrichedAt))),
    db.execute(sql`
      select to_char(d, 'YYYY-MM-DD') as day,
             (select count(*)::int from ${properties}
               where ${properties.partnerId} = ${scope.partnerId} and ${properties.mode} = ${scope.mode}
                 and ${properties.createdAt} >= d and ${properties.createdAt} < d + interval '1 day') as registered,
             ${deliveriesOn("succeeded")} as delivered,
             ${deliveriesOn("failed")} as failed
      from generate_series(date_trunc('day', now()) - interval '13 days', date_trunc('day', now()), interval '1 day') d
      order by d`),
  ]);
  const t = timing[0];
  return {
    byStatus,
    bySource,
    deliveries,
    timing: {
      p50: t?.p50 == null ? null : Number(t.p50),
      p95: t?.p95 == null ? null : Number(t.p95),
      finished: t?.finished ?? 0,
    },
    daily: rowsOf<{ day: string; registered: number; delivered: number; failed: number }>(daily),
  };
}

export async function timeline(db: Db, propertyId: string) {
  return db
    .select()
    .from(enrichmentAttempts)
    .where(eq(enrichmentAttempts.propertyId, propertyId))
    .orderBy(enrichmentAttempts.id);
}

/** How many of the scope's properties are still enriching (a list refreshes itself while any are). */
export async function enrichingCount(db: Db, scope: Scope): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(properties)
    .where(
      and(
        eq(properties.partnerId, scope.partnerId),
        eq(properties.mode, scope.mode),
        eq(properties.status, "enriching"),
      ),
    );
  return row?.n ?? 0;
}

/** A delivery's state as partners read it: pending with attempts made is "retrying". */
export const DELIVERY_FILTERS = ["succeeded", "failed", "retrying", "pending"] as const;
export type DeliveryFilter = (typeof DELIVERY_FILTERS)[number];

export interface DeliverySearch {
  /** A partner's own, in one mode; omitted for operators. */
  scope?: Scope;
  /** Operators: one partner's, both modes. */
  partnerId?: string;
  endpointId?: string;
  propertyId?: string;
  status?: DeliveryFilter;
  eventType?: string;
  from?: Date;
  to?: Date;
  /** A `webhook-id` (msg_…) or a property id. */
  q?: string;
  /** Keyset paging: deliveries older than the one with this id (compared in the database, at its precision). */
  before?: string;
  limit?: number;
}

function statusCondition(status: DeliveryFilter) {
  if (status === "retrying") return and(eq(webhookDeliveries.status, "pending"), gt(webhookDeliveries.attempts, 0));
  if (status === "pending") return and(eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.attempts, 0));
  return eq(webhookDeliveries.status, status);
}

/**
 * Deliveries newest first with their endpoint, event (type, property, the exact body sent) and
 * attempts: the portal's and the admin console's delivery log. `next` pages on.
 */
export async function deliveries(db: Db, filter: DeliverySearch) {
  const limit = filter.limit ?? 50;
  const q = filter.q?.trim();
  const rows = await db
    .select({ delivery: webhookDeliveries, url: webhookEndpoints.url, event: events, partner: partners.name })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .innerJoin(partners, eq(partners.id, webhookEndpoints.partnerId))
    .where(
      and(
        filter.scope
          ? and(eq(webhookEndpoints.partnerId, filter.scope.partnerId), eq(webhookEndpoints.mode, filter.scope.mode))
          : undefined,
        filter.partnerId ? eq(webhookEndpoints.partnerId, filter.partnerId) : undefined,
        filter.endpointId ? eq(webhookDeliveries.endpointId, filter.endpointId) : undefined,
        filter.propertyId ? eq(events.propertyId, filter.propertyId) : undefined,
        filter.status ? statusCondition(filter.status) : undefined,
        filter.eventType ? eq(events.type, filter.eventType) : undefined,
        filter.from ? sql`${webhookDeliveries.createdAt} >= ${filter.from}` : undefined,
        filter.to ? sql`${webhookDeliveries.createdAt} < ${filter.to}` : undefined,
        q ? (isUuid(q) ? eq(events.propertyId, q) : eq(webhookDeliveries.messageId, q)) : undefined,
        filter.before
          ? sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (select ${webhookDeliveries.createdAt}, ${webhookDeliveries.id} from ${webhookDeliveries} where ${webhookDeliveries.id} = ${filter.before}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const attempts = page.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            page.map((r) => r.delivery.id),
          ),
        )
        .orderBy(webhookAttempts.id)
    : [];
  return {
    data: page.map((r) => ({
      ...r,
      eventType: r.event.type,
      propertyId: r.event.propertyId,
      // A partner knows its properties by reference, not by our id.
      propertyReference: referenceOf(r.event.payload),
      payload: wirePayload(r.event),
      attempts: attempts.filter((a) => a.deliveryId === r.delivery.id),
    })),
    next: rows.length > limit ? page.at(-1)!.delivery.id : null,
  };
}

const referenceOf = (payload: unknown): string | null => {
  const reference =
    typeof payload === "object" && payload !== null && "cadastral_reference" in payload
      ? payload.cadastral_reference
      : undefined;
  return typeof reference === "string" ? reference : null;
};

/** Delivery counts per endpoint and state (succeeded, failed, retrying, pending) over the last `days` days. */
export async function endpointStats(db: Db, endpointIds: string[], days = 7) {
  if (!endpointIds.length) return [];
  return db
    .select({ endpointId: webhookDeliveries.endpointId, status: deliveryState, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.endpointId, endpointIds),
        gt(webhookDeliveries.createdAt, sql`now() - make_interval(days => ${days})`),
      ),
    )
    .groupBy(webhookDeliveries.endpointId, deliveryState);
}

export async function teamOf(db: Db, partnerId: string) {
  return db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.partnerId, partnerId))
    .orderBy(users.createdAt);
}

// ---- admin ----

/** Headline numbers for the operator: what exists and what needs attention. */
export async function adminCounts(db: Db) {
  const [row] = rowsOf<{
    partners: number;
    users: number;
    active_keys: number;
    troubled_endpoints: number;
    failed_deliveries: number;
    enriching: number;
  }>(
    await db.execute(sql`
      select (select count(*)::int from ${partners}) as partners,
             (select count(*)::int from ${users}) as users,
             (select count(*)::int from ${apiKeys} where ${apiKeys.revokedAt} is null) as active_keys,
             (select count(*)::int from ${webhookEndpoints}
               where ${webhookEndpoints.deletedAt} is null and (not ${webhookEndpoints.enabled} or ${webhookEndpoints.failingSince} is not null)) as troubled_endpoints,
             (select count(*)::int from ${webhookDeliveries} where ${webhookDeliveries.status} = 'failed') as failed_deliveries,
             (select count(*)::int from ${properties} where ${properties.status} = 'enriching') as enriching`),
  );
  return row!;
}

export async function allUsers(db: Db) {
  return db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      partner: partners.name,
      createdAt: users.createdAt,
      disabledAt: users.disabledAt,
    })
    .from(users)
    .leftJoin(partners, eq(partners.id, users.partnerId))
    .orderBy(desc(users.createdAt));
}

export async function allKeys(db: Db, search?: string, partnerId?: string) {
  const like = search ? containsPattern(search) : undefined;
  return db
    .select({
      id: apiKeys.id,
      partnerId: apiKeys.partnerId,
      visibleStart: apiKeys.visibleStart,
      name: apiKeys.name,
      mode: apiKeys.mode,
      partner: partners.name,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
      expiresAt: apiKeys.expiresAt,
    })
    .from(apiKeys)
    .innerJoin(partners, eq(partners.id, apiKeys.partnerId))
    .where(
      and(
        like ? sql`${apiKeys.visibleStart} ilike ${like}` : undefined,
        partnerId ? eq(apiKeys.partnerId, partnerId) : undefined,
      ),
    )
    .orderBy(desc(apiKeys.createdAt))
    .limit(200);
}

/** Endpoints that need attention: disabled by us or currently failing. */
export async function troubledEndpoints(db: Db) {
  return db
    .select({ endpoint: webhookEndpoints, partner: partners.name })
    .from(webhookEndpoints)
    .innerJoin(partners, eq(partners.id, webhookEndpoints.partnerId))
    .where(
      and(
        sql`${webhookEndpoints.deletedAt} is null`,
        or(eq(webhookEndpoints.enabled, false), isNotNull(webhookEndpoints.failingSince)),
      ),
    )
    .orderBy(desc(webhookEndpoints.createdAt));
}

export async function failedDeliveries(db: Db, limit = 100) {
  return db
    .select({ delivery: webhookDeliveries, url: webhookEndpoints.url, partner: partners.name, eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(partners, eq(partners.id, webhookEndpoints.partnerId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(
      or(
        eq(webhookDeliveries.status, "failed"),
        and(eq(webhookDeliveries.status, "pending"), gt(webhookDeliveries.attempts, 0)),
      ),
    )
    .orderBy(desc(webhookDeliveries.updatedAt))
    .limit(limit);
}

/** Writes counted in the current window per partner and mode, busiest first. */
export async function rateLimitUsage(db: Db, windowSeconds: number) {
  const usage = await windowUsage(db, windowSeconds, 100);
  const names = usage.length
    ? await db
        .select({ id: partners.id, name: partners.name })
        .from(partners)
        .where(
          inArray(
            partners.id,
            usage.map((u) => u.partnerId),
          ),
        )
    : [];
  return usage.flatMap((u) => {
    const partner = names.find((p) => p.id === u.partnerId);
    return partner ? [{ partner: partner.name, mode: u.mode, used: u.used, lastHit: u.lastHit }] : [];
  });
}
