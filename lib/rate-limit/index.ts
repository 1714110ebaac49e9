// The shared write limit: N requests per sliding window per bucket (partner + mode), exact across
// app instances because the check-and-count is one atomic statement in the shared store.
import { sql } from "drizzle-orm";
import { bare, rowsOf, schema, type DbOrTx } from "@/lib/db";
import { DomainError, type Scope } from "@/lib/domain";

const { rateLimitWindows: w } = schema;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until a slot frees (0 when the window is empty). */
  resetSeconds: number;
  /** The same in milliseconds, for callers that wait for the slot themselves. */
  resetMs: number;
  windowSeconds: number;
}

export interface RateLimiter {
  readonly limit: number;
  readonly windowSeconds: number;
  hit(bucket: string): Promise<RateLimitDecision>;
}

/** Sliding log in PostgreSQL/PGlite: the row lock of the upsert serialises concurrent hits. */
export function databaseRateLimiter(db: DbOrTx, limit: number, windowSeconds: number): RateLimiter {
  const windowMs = windowSeconds * 1000;
  const decide = (hits: number[], now: number, allowed: boolean): RateLimitDecision => {
    const live = hits.filter((h) => h > now - windowMs);
    const oldest = live.length ? Math.min(...live) : now - windowMs;
    const resetMs = live.length ? Math.max(0, oldest + windowMs - now) : 0;
    return {
      allowed,
      limit,
      windowSeconds,
      remaining: Math.max(0, limit - live.length),
      resetSeconds: live.length ? Math.max(1, Math.ceil(resetMs / 1000)) : 0,
      resetMs,
    };
  };
  return {
    limit,
    windowSeconds,
    async hit(bucket) {
      // `hits` comes back only when the hit was counted; the clock is the database's, shared by all instances.
      const result = await db.execute(sql`
        with clock as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as now)
        insert into ${w} (${bare(w.bucket)}, ${bare(w.hits)})
        select ${bucket}, array[clock.now] from clock
        on conflict (${bare(w.bucket)}) do update
          set ${bare(w.hits)} = array(select h from unnest(${w.hits}) h where h > (select now from clock) - ${windowMs}::bigint)
                     || (select now from clock)
          where (select count(*) from unnest(${w.hits}) h where h > (select now from clock) - ${windowMs}::bigint) < ${limit}
        returning ${w.hits}, (select now from clock) as now`);
      const [counted] = rowsOf<{ hits: (string | number)[]; now: string | number }>(result);
      if (counted) return decide(counted.hits.map(Number), Number(counted.now), true);
      const denied = await db.execute(sql`
        select ${w.hits}, (extract(epoch from clock_timestamp()) * 1000)::bigint as now
        from ${w} where ${w.bucket} = ${bucket}`);
      const [row] = rowsOf<{ hits: (string | number)[]; now: string | number }>(denied);
      return decide(row ? row.hits.map(Number) : [], Number(row?.now ?? Date.now()), false);
    },
  };
}

/** Upstash (serverless deployments): @upstash/ratelimit's sliding window on Upstash Redis. */
export async function upstashRateLimiter(
  url: string,
  token: string,
  limit: number,
  windowSeconds: number,
): Promise<RateLimiter> {
  const { Ratelimit } = await import("@upstash/ratelimit");
  const { Redis } = await import("@upstash/redis");
  const ratelimit = new Ratelimit({
    redis: new Redis({ url, token }),
    limiter: Ratelimit.slidingWindow(limit, `${windowSeconds} s`),
    prefix: "finca:writes",
  });
  return {
    limit,
    windowSeconds,
    async hit(bucket) {
      const r = await ratelimit.limit(bucket);
      return {
        allowed: r.success,
        limit,
        windowSeconds,
        remaining: Math.max(0, r.remaining),
        resetSeconds: Math.max(0, Math.ceil((r.reset - Date.now()) / 1000)),
        resetMs: Math.max(0, r.reset - Date.now()),
      };
    },
  };
}

/** All keys of a partner share one write budget per mode. */
export function rateLimitBucket(scope: Scope): string {
  return `writes:${scope.partnerId}:${scope.mode}`;
}

/** The scope of a bucket `rateLimitBucket` wrote, else null. */
function scopeOfBucket(bucket: string): Scope | null {
  const [kind, partnerId, mode] = bucket.split(":");
  return kind === "writes" && partnerId && (mode === "test" || mode === "live") ? { partnerId, mode } : null;
}

/** The database limiter's windows, busiest first: writes counted now and the last one, per scope. */
export async function windowUsage(db: DbOrTx, windowSeconds: number, limit: number): Promise<(Scope & { used: number; lastHit: Date | null })[]> {
  const rows = rowsOf<{ bucket: string; used: number; last_hit: string | number | null }>(
    await db.execute(sql`
      select ${w.bucket} as bucket,
             (select count(*)::int from unnest(${w.hits}) h where h > (extract(epoch from clock_timestamp()) * 1000)::bigint - ${windowSeconds * 1000}::bigint) as used,
             (select max(h) from unnest(${w.hits}) h) as last_hit
      from ${w}
      order by used desc, last_hit desc nulls last limit ${limit}`),
  );
  return rows.flatMap((r) => {
    const scope = scopeOfBucket(r.bucket);
    return scope ? [{ ...scope, used: r.used, lastHit: r.last_hit == null ? null : new Date(Number(r.last_hit)) }] : [];
  });
}

/** The refusal of a write over the limit, in the words the API and the portal show. */
export function rateLimited(d: RateLimitDecision): DomainError {
  return new DomainError("rate_limited", `At most ${d.limit} write requests per ${d.windowSeconds} s; retry after ${retryAfterSeconds(d)} s.`);
}

/** Retry-After is delta-seconds (never an epoch), at least 1 so clients do not spin. */
const retryAfterSeconds = (d: RateLimitDecision) => Math.max(1, d.resetSeconds);

/** The contract's headers (IETF RateLimit fields), on every write response. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Policy": `"writes";q=${d.limit};w=${d.windowSeconds}`,
    RateLimit: `"writes";r=${d.remaining};t=${d.resetSeconds}`,
  };
  if (!d.allowed) headers["Retry-After"] = String(retryAfterSeconds(d));
  return headers;
}
