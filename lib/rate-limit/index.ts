// The shared write limit: N requests per sliding window per bucket (partner + mode), exact across
// app instances because the check-and-count is one atomic statement in the shared store.
import { sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/lib/db";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until a slot frees (0 when the window is empty). */
  resetSeconds: number;
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
    return {
      allowed,
      limit,
      windowSeconds,
      remaining: Math.max(0, limit - live.length),
      resetSeconds: live.length ? Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) : 0,
    };
  };
  return {
    limit,
    windowSeconds,
    async hit(bucket) {
      // `hits` comes back only when the hit was counted; the clock is the database's, shared by all instances.
      const result = await db.execute(sql`
        with clock as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as now)
        insert into rate_limit_windows as w (bucket, hits)
        select ${bucket}, array[clock.now] from clock
        on conflict (bucket) do update
          set hits = array(select h from unnest(w.hits) h where h > (select now from clock) - ${windowMs}::bigint)
                     || (select now from clock)
          where (select count(*) from unnest(w.hits) h where h > (select now from clock) - ${windowMs}::bigint) < ${limit}
        returning hits, (select now from clock) as now`);
      const [counted] = rowsOf<{ hits: (string | number)[]; now: string | number }>(result);
      if (counted) return decide(counted.hits.map(Number), Number(counted.now), true);
      const denied = await db.execute(sql`
        select hits, (extract(epoch from clock_timestamp()) * 1000)::bigint as now
        from rate_limit_windows where bucket = ${bucket}`);
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
      };
    },
  };
}

export function rateLimitBucket(partnerId: string, mode: string): string {
  return `writes:${partnerId}:${mode}`;
}

/** The contract's headers (IETF RateLimit fields), on every write response. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Policy": `"writes";q=${d.limit};w=${d.windowSeconds}`,
    RateLimit: `"writes";r=${d.remaining};t=${d.resetSeconds}`,
  };
  // Retry-After is delta-seconds (never an epoch), at least 1 so clients do not spin.
  if (!d.allowed) headers["Retry-After"] = String(Math.max(1, d.resetSeconds));
  return headers;
}
