// Read models for the portal and the admin console (no business rules here: just views).
import { and, desc, eq, gt, inArray, isNotNull, or, sql } from "drizzle-orm";
import { schema, rowsOf, type Db } from "@/lib/db";
import type { Mode } from "@/drizzle/schema";

const { properties, enrichmentSources, enrichmentAttempts, events, webhookDeliveries, webhookEndpoints, webhookAttempts, partners, users, apiKeys } = schema;
type Scope = { partnerId: string; mode: Mode };

export async function overview(db: Db, scope: Scope) {
  const byStatus = await db
    .select({ status: properties.status, n: sql<number>`count(*)::int` })
    .from(properties)
    .where(and(eq(properties.partnerId, scope.partnerId), eq(properties.mode, scope.mode)))
    .groupBy(properties.status);
  const bySource = await db
    .select({ source: enrichmentSources.source, status: enrichmentSources.status, n: sql<number>`count(*)::int` })
    .from(enrichmentSources)
    .innerJoin(properties, eq(properties.id, enrichmentSources.propertyId))
    .where(and(eq(properties.partnerId, scope.partnerId), eq(properties.mode, scope.mode)))
    .groupBy(enrichmentSources.source, enrichmentSources.status);
  const deliveries = await db
    .select({ status: webhookDeliveries.status, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookEndpoints.partnerId, scope.partnerId), eq(webhookEndpoints.mode, scope.mode)))
    .groupBy(webhookDeliveries.status);
  const last7 = rowsOf<{ day: string; n: number }>(
    await db.execute(sql`
      select to_char(d, 'YYYY-MM-DD') as day, count(p.id)::int as n
      from generate_series(date_trunc('day', now()) - interval '6 days', date_trunc('day', now()), interval '1 day') d
      left join properties p on date_trunc('day', p.created_at) = d and p.partner_id = ${scope.partnerId} and p.mode = ${scope.mode}
      group by d order by d`),
  );
  return { byStatus, bySource, deliveries, last7 };
}

export async function timeline(db: Db, propertyId: string) {
  return db.select().from(enrichmentAttempts).where(eq(enrichmentAttempts.propertyId, propertyId)).orderBy(enrichmentAttempts.id);
}

/** Deliveries with their endpoint, newest first: of one property's events, or of one endpoint. */
export async function deliveries(db: Db, filter: { propertyId?: string; endpointId?: string; limit?: number }) {
  const rows = await db
    .select({ delivery: webhookDeliveries, url: webhookEndpoints.url, eventType: events.type, propertyId: events.propertyId })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(filter.propertyId ? eq(events.propertyId, filter.propertyId) : undefined, filter.endpointId ? eq(webhookDeliveries.endpointId, filter.endpointId) : undefined))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(filter.limit ?? 50);
  const attempts = rows.length
    ? await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, rows.map((r) => r.delivery.id))).orderBy(webhookAttempts.id)
    : [];
  return rows.map((r) => ({ ...r, attempts: attempts.filter((a) => a.deliveryId === r.delivery.id) }));
}

export async function teamOf(db: Db, partnerId: string) {
  return db.select({ id: users.id, email: users.email, name: users.name, role: users.role, createdAt: users.createdAt }).from(users).where(eq(users.partnerId, partnerId)).orderBy(users.createdAt);
}

// ---- admin ----

export async function allUsers(db: Db) {
  return db
    .select({ id: users.id, email: users.email, role: users.role, partner: partners.name, createdAt: users.createdAt })
    .from(users)
    .leftJoin(partners, eq(partners.id, users.partnerId))
    .orderBy(desc(users.createdAt));
}

export async function allKeys(db: Db, search?: string) {
  const like = search ? `%${search.replace(/[%_\\]/g, "\\$&")}%` : undefined;
  return db
    .select({ id: apiKeys.id, visibleStart: apiKeys.visibleStart, name: apiKeys.name, mode: apiKeys.mode, partner: partners.name, createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .innerJoin(partners, eq(partners.id, apiKeys.partnerId))
    .where(like ? sql`${apiKeys.visibleStart} ilike ${like}` : undefined)
    .orderBy(desc(apiKeys.createdAt))
    .limit(200);
}

/** Endpoints that need attention: disabled by us or currently failing. */
export async function troubledEndpoints(db: Db) {
  return db
    .select({ endpoint: webhookEndpoints, partner: partners.name })
    .from(webhookEndpoints)
    .innerJoin(partners, eq(partners.id, webhookEndpoints.partnerId))
    .where(and(sql`${webhookEndpoints.deletedAt} is null`, or(eq(webhookEndpoints.enabled, false), isNotNull(webhookEndpoints.failingSince))))
    .orderBy(desc(webhookEndpoints.createdAt));
}

export async function failedDeliveries(db: Db, limit = 100) {
  return db
    .select({ delivery: webhookDeliveries, url: webhookEndpoints.url, partner: partners.name, eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(partners, eq(partners.id, webhookEndpoints.partnerId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(or(eq(webhookDeliveries.status, "failed"), and(eq(webhookDeliveries.status, "pending"), gt(webhookDeliveries.attempts, 0))))
    .orderBy(desc(webhookDeliveries.updatedAt))
    .limit(limit);
}

/** Writes counted in the current window per partner and mode, busiest first. */
export async function rateLimitUsage(db: Db, windowSeconds: number) {
  return rowsOf<{ partner: string; mode: string; used: number }>(
    await db.execute(sql`
      select p.name as partner, split_part(w.bucket, ':', 3) as mode,
             (select count(*)::int from unnest(w.hits) h where h > (extract(epoch from clock_timestamp()) * 1000)::bigint - ${windowSeconds * 1000}::bigint) as used
      from rate_limit_windows w join partners p on p.id::text = split_part(w.bucket, ':', 2)
      order by used desc, p.name limit 100`),
  );
}
