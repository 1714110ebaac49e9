// The shared write limit: N requests per sliding window per bucket (partner + mode), exact across
// app instances because the check-and-count is one atomic statement in the shared store.
import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { bare, rowsOf, schema, type DbOrTx } from "@/lib/db";
import { DomainError, type Scope, type WriteBudget } from "@/lib/domain";
import { upstashRequester } from "./upstash-requester";

const { rateLimitWindows: w } = schema;

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
  /**
   * The hit as parts of a statement the caller makes anyway (a round trip less): the database
   * limiter's; absent where the store is elsewhere (Upstash).
   */
  readonly inStatement?: HitInStatement;
}

/** One hit inside a larger statement: WITH items, the columns to select, the decision read from them. */
export interface HitInStatement {
  /** WITH items counting one hit on `bucket`, an expression over the one row of `from` (none without a row). */
  with(bucket: SQL, from?: SQL): SQL;
  /** Select-list items the decision is read from. */
  readonly columns: SQL;
  decide(row: Record<string, unknown>): RateLimitDecision;
}

// The WITH items' names (rl_…) and the columns read back.
const BUCKET = sql.identifier("rl_bucket");
const CLOCK = sql.identifier("rl_clock");
const COUNTED = sql.identifier("rl_counted");
const CLOCK_NOW = sql`(select now from ${CLOCK})`;
type Hits = (string | number)[] | null;

/**
 * Sliding log in PostgreSQL: the row lock of the upsert serialises concurrent hits. The
 * clock is the database's, shared by all instances.
 */
export function databaseRateLimiter(db: DbOrTx, limit: number, windowSeconds: number): RateLimiter {
  const windowMs = windowSeconds * 1000;
  const live = (hits: Hits, now: number) => (hits ?? []).map(Number).filter((h) => h > now - windowMs);
  // Where the window begins, on the database's clock.
  const since = sql`${CLOCK_NOW} - ${windowMs}::bigint`;
  const inStatement: HitInStatement = {
    // `rl_counted` returns the hits only when this one was counted (the window had room).
    with: (bucket, from) => sql`
      ${BUCKET} as (select ${bucket} as bucket${from ? sql` from ${from}` : sql``}),
      ${CLOCK} as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as now),
      ${COUNTED} as (
        insert into ${w} (${bare(w.bucket)}, ${bare(w.hits)})
        select ${BUCKET}.bucket, array[${CLOCK}.now] from ${BUCKET}, ${CLOCK}
        on conflict (${bare(w.bucket)}) do update
          set ${bare(w.hits)} = array(select h from unnest(${w.hits}) h where h > ${since}) || ${CLOCK_NOW}
          where (select count(*) from unnest(${w.hits}) h where h > ${since}) < ${limit}
        returning ${w.hits})`,
    // A refused hit reads the window as the statement began: its live hits are the locked row's
    // (newer ones are newer), so the oldest, which sets when a slot frees, is the same.
    columns: sql`(select hits from ${COUNTED}) as rl_counted,
      (select ${w.hits} from ${w} join ${BUCKET} on ${w.bucket} = ${BUCKET}.bucket) as rl_seen,
      (select now from ${CLOCK}) as rl_now`,
    decide(row) {
      const now = Number(row.rl_now);
      const counted = row.rl_counted as Hits;
      const hits = live(counted ?? (row.rl_seen as Hits), now);
      // A refusal whose window others filled after the statement began saw none: a slot frees
      // within a window.
      const oldest = hits.length ? Math.min(...hits) : now;
      const resetMs = Math.max(0, oldest + windowMs - now);
      return {
        allowed: counted !== null,
        limit,
        windowSeconds,
        remaining: counted !== null ? Math.max(0, limit - hits.length) : 0,
        resetSeconds: counted !== null && !hits.length ? 0 : Math.max(1, Math.ceil(resetMs / 1000)),
      };
    },
  };
  return {
    limit,
    windowSeconds,
    inStatement,
    async hit(bucket) {
      const { columns } = inStatement;
      const result = await db.execute(sql`with ${inStatement.with(sql`${bucket}::text`)} select ${columns}`);
      return inStatement.decide(rowsOf<Record<string, unknown>>(result)[0]!);
    },
  };
}

export interface UpstashOptions {
  url: string;
  token: string;
  limit: number;
  windowSeconds: number;
  /** How long a hit may take; longer is an outage. */
  timeoutMs: number;
  /** Told of each hit Upstash did not answer (the write was refused with 503); must not throw. */
  onUnavailable?(error: unknown): void;
}

/**
 * The contract's exact sliding window in one Lua script, as the database's limiter keeps it: a
 * bucket's hits in a sorted set by time (Redis's own clock, the same for every instance), those
 * older than the window dropped, a hit added while fewer than the limit remain. Answers whether it
 * was allowed, the hits in the window and the oldest one's time (when a slot frees).
 * (@upstash/ratelimit's slidingWindow weighs the previous fixed window's count in: it let 16 writes
 * through in under one 4 s window of a limit of 10, which the contract's "100 allowed, not 101" rules out.)
 */
const SLIDING_LOG = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
return {allowed, count, tonumber(oldest or now), now}
`;

/**
 * Upstash (serverless deployments): the exact sliding window above on Upstash Redis. When Upstash
 * does not answer within `timeoutMs` (refused, failing, hanging), the write is refused with 503 and
 * a retry hint: failing open would let one partner's loop through to the public registers unmetered,
 * and a write retried a moment later loses nothing (creates are idempotent). No retries here.
 */
export async function upstashRateLimiter(options: UpstashOptions): Promise<RateLimiter> {
  const { Redis } = await import("@upstash/redis");
  const { limit, windowSeconds } = options;
  const windowMs = windowSeconds * 1000;
  // Node's HTTP client, not the library's fetch (./upstash-requester.ts); no retries, a timeout of its own.
  const redis = new Redis(upstashRequester(options.url, options.token, options.timeoutMs));
  return {
    limit,
    windowSeconds,
    async hit(bucket) {
      let answer: [number, number, number, number];
      try {
        answer = await redis.eval(SLIDING_LOG, [`finca:writes:${bucket}`], [windowMs, limit, randomUUID()]);
      } catch (error) {
        options.onUnavailable?.(error);
        throw new DomainError("service_unavailable", "The rate limiter does not answer; retry shortly.");
      }
      const [allowed, count, oldest, now] = answer.map(Number) as [number, number, number, number];
      const resetMs = Math.max(0, oldest + windowMs - now);
      return {
        allowed: allowed === 1,
        limit,
        windowSeconds,
        remaining: allowed === 1 ? Math.max(0, limit - count) : 0,
        resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
      };
    },
  };
}

/** All keys of a partner share one write budget per mode. */
export function rateLimitBucket(scope: Scope): string {
  return `writes:${scope.partnerId}:${scope.mode}`;
}

/**
 * The portal's account changes (keys, rolls, webhook endpoints) of a partner and mode: a budget of their
 * own, the same size, so a bulk load that spends the API's cannot lock the partner out of its account.
 */
export function accountBucket(scope: Scope): string {
  return `account:${scope.partnerId}:${scope.mode}`;
}

/** An operator's changes in the admin console: a budget per operator, the same size. */
export function operatorBucket(userId: string): string {
  return `operator:${userId}`;
}

/** `rateLimitBucket` in SQL, over a scope's columns. */
export const rateLimitBucketSql = (scope: { partnerId: SQL; mode: SQL }): SQL =>
  sql`concat('writes:', ${scope.partnerId}, ':', ${scope.mode})`;

/** The scope of a bucket `rateLimitBucket` wrote, else null. */
function scopeOfBucket(bucket: string): Scope | null {
  const [kind, partnerId, mode] = bucket.split(":");
  return kind === "writes" && partnerId && (mode === "test" || mode === "live") ? { partnerId, mode } : null;
}

/** The database limiter's windows, busiest first: writes counted now and the last one, per scope. */
export async function windowUsage(
  db: DbOrTx,
  windowSeconds: number,
  limit: number,
): Promise<(Scope & { used: number; lastHit: Date | null })[]> {
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
  return new DomainError(
    "rate_limited",
    `At most ${d.limit} write requests per ${d.windowSeconds} s; retry after ${retryAfterSeconds(d)} s.`,
  );
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

/** The budget of a write counted on `bucket` now (the portal's: the partner's bucket, or the account's). */
export const budgetOn =
  (limiter: RateLimiter, bucket: string): WriteBudget =>
  async () => {
    const decision = await limiter.hit(bucket);
    if (!decision.allowed) throw rateLimited(decision);
  };

/**
 * A change that spends a write budget (itself, as a command does, or through `spent`): what it
 * answered, or the refusal's detail when the budget was spent (and nothing changed). Another error
 * is the change's own and is thrown.
 */
export async function unlessRefused<T>(change: () => Promise<T>): Promise<{ done: T } | { refused: string }> {
  try {
    return { done: await change() };
  } catch (error) {
    if (error instanceof DomainError && error.code === "rate_limited") return { refused: error.detail };
    throw error;
  }
}

/** `change`, made once `budget` allowed it: for changes that are not commands (a key's revocation...). */
export const spent =
  <T>(budget: WriteBudget, change: () => Promise<T>) =>
  async (): Promise<T> => {
    await budget();
    return change();
  };

/** The budget of a write already counted (the API's key statement counts it): refused as that count was. */
export const countedAs =
  (decision: RateLimitDecision): WriteBudget =>
  async () => {
    if (!decision.allowed) throw rateLimited(decision);
  };
