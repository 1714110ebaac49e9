// What every live register client needs: a bounded GET with a timeout, error classification,
// a concurrency cap, an answer cache with TTL, and coalescing of identical in-flight lookups.
import { readCapped } from "@/lib/http/read-capped";
import type { Provider, RegisterBudget, RegisterGuard, SourceErrorCode, SourceInput, SourceOutcome } from "./types";
import { codeOf, messageOf } from "@/lib/domain";

export type Outcome<T> = SourceOutcome<T>;

/** A failure with a stable code (`timeout`, `network`, `upstream_status_503`, `upstream_html`, `malformed`...). */
export class UpstreamError extends Error {
  constructor(
    readonly code: SourceErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const toError = (error: unknown): Outcome<never> =>
  error instanceof UpstreamError
    ? { kind: "error", code: error.code, message: error.message }
    : { kind: "error", code: "network", message: error instanceof Error ? error.message : String(error) };

/** Register answers are small (a Catastro parcel of 18 units is 7 kB); anything huge is not one. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

const squash = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 160);

/**
 * GET returning the body of a 200. Everything else becomes an UpstreamError: the status, an HTML
 * page (WAF blocks and maintenance pages come as HTML, sometimes with 200), a cut-off body, or no
 * complete answer within the timeout. Only the timeout stops a request: callers stop *waiting*
 * at their own deadline (createCachedLookup), so that a late answer can still be cached.
 * Redirects are refused (a redirect is usually a WAF or login page), except to hosts that
 * `followTo` accepts (a register that moved domains), at most a few hops.
 */
export async function getText(
  url: string,
  options: { timeoutMs: number; followTo?: (url: URL) => boolean; headers?: Record<string, string> },
): Promise<string> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const aborted = () => new UpstreamError("timeout", `no complete answer within ${options.timeoutMs} ms`);
  let res: Response | undefined;
  for (let hop = 0, target = new URL(url); ; hop++) {
    try {
      res = await fetch(target, {
        signal,
        redirect: "manual",
        headers: { Accept: "application/json", "User-Agent": "Finca/1.0 (property enrichment)", ...options.headers },
      });
    } catch (error) {
      if (signal.aborted) throw aborted();
      const cause = error instanceof Error ? error.cause : undefined;
      throw new UpstreamError("network", codeOf(cause) ?? (cause instanceof Error ? cause.message : messageOf(error)));
    }
    const location = res.status >= 300 && res.status < 400 ? res.headers.get("location") : null;
    if (!location) break;
    await res.body?.cancel();
    const next = new URL(location, target);
    if (!options.followTo?.(next) || hop >= MAX_REDIRECTS)
      throw new UpstreamError("redirect", `HTTP ${res.status} to ${next.origin}${next.pathname}`);
    target = next;
  }
  let body: Uint8Array | null;
  try {
    body = await readCapped(res, MAX_BODY_BYTES);
  } catch {
    if (signal.aborted) throw aborted();
    throw new UpstreamError("network", "the answer was cut off");
  }
  if (body === null) throw new UpstreamError("malformed", `answer larger than ${MAX_BODY_BYTES} bytes`);
  const text = new TextDecoder().decode(body);
  if (res.status !== 200)
    throw new UpstreamError(`upstream_status_${res.status}`, `HTTP ${res.status}: ${squash(text)}`);
  const contentType = res.headers.get("content-type") ?? "";
  if (/^\s*</.test(text) && (/html/i.test(contentType) || /<(!doctype html|html|body)\b/i.test(text.slice(0, 500)))) {
    throw new UpstreamError("upstream_html", squash(text));
  }
  return text;
}

const MAX_REDIRECTS = 3;

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError("malformed", "the answer is not valid JSON");
  }
}

export type Limiter = <T>(signal: AbortSignal, fn: () => Promise<T>) => Promise<T>;

/**
 * At most `max` calls in flight; the rest wait in order, and leave the queue (with a `timeout`
 * error) when their signal aborts. A finishing call hands its slot straight to the next waiter, so
 * a newcomer can never slip in between and push the count over `max`.
 */
export function createLimiter(max: number): Limiter {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency cap must be a positive integer, got ${max}`);
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return async function limit<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    if (signal.aborted) throw new UpstreamError("timeout", "aborted before the request was sent");
    if (active < max) active++;
    else {
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          waiting.splice(waiting.indexOf(go), 1);
          reject(new UpstreamError("timeout", "aborted while queued behind other requests"));
        };
        waiting.push(go);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    }
    try {
      return await fn();
    } finally {
      release();
    }
  };
}

/**
 * Where definite answers (found, not_found) are kept between lookups; errors are never cached.
 * Asynchronous so that a cache shared by several instances (a database table) can implement it.
 */
export interface AnswerCache {
  get(key: string): Promise<Outcome<unknown> | undefined>;
  set(key: string, value: Outcome<unknown>, ttlMs: number): Promise<void>;
}

/** A bounded in-process LRU with a TTL per entry. */
export function memoryCache(maxEntries = 10_000, now: () => number = Date.now): AnswerCache {
  const entries = new Map<string, { value: Outcome<unknown>; expires: number }>();
  return {
    async get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      entries.delete(key);
      if (hit.expires <= now()) return undefined;
      entries.set(key, hit); // re-inserted: the most recently used goes last
      return hit.value;
    },
    async set(key, value, ttlMs) {
      entries.delete(key);
      entries.set(key, { value, expires: now() + ttlMs });
      // Map order is insertion order, so the first key is the least recently used.
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
  };
}

/** Waits until a new request may be sent (a register budget): null, or the answer instead of sending it. */
export type Admission = (signal: AbortSignal) => Promise<Outcome<never> | null>;

export type CachedLookup = <T>(
  key: string,
  signal: AbortSignal,
  fetcher: () => Promise<Outcome<T>>,
  admit?: Admission,
) => Promise<Outcome<T>>;

const abortedOutcome = (): Outcome<never> => ({ kind: "error", code: "timeout", message: "aborted by the deadline" });

/**
 * Cached, coalesced and capped lookups. A fresh definite answer is served from the cache (summary
 * marked `cached`); concurrent lookups of one key share one fetch, which runs under the limiter.
 * Each caller stops waiting when its own signal aborts. A fetch still queued is dropped once every
 * caller waiting for it has gone; a fetch already sent runs on to its own timeout, so an answer
 * arriving after the callers' deadline still fills the cache for the retry, and a retry arriving
 * meanwhile joins it instead of sending a second request. A cache that fails counts as empty: it
 * must never fail a lookup. `admit` (an open breaker's refusal, a register budget) is waited for
 * before a new fetch takes one of the limiter's places, so a request held back by its budget never
 * blocks another one, and an open breaker answers at once even while every place is taken.
 */
export function createCachedLookup(options: {
  cache: AnswerCache;
  ttlMs: number;
  limit: Limiter;
  onCacheError?: (error: unknown) => void;
}): CachedLookup {
  const { cache, ttlMs, limit } = options;
  const told = options.onCacheError ?? (() => {});
  const inflight = new Map<string, { promise: Promise<Outcome<unknown>>; join: (signal: AbortSignal) => void }>();

  function start(key: string, fetcher: () => Promise<Outcome<unknown>>, admit?: Admission) {
    const queued = new AbortController();
    let sent = false;
    let waiting = 0;
    const admitted = admit ? admit(queued.signal) : Promise.resolve(null);
    const entry = {
      promise: admitted
        .then(
          (refused) =>
            refused ??
            limit(queued.signal, () => {
              sent = true;
              return fetcher();
            }),
        )
        .catch(toError)
        .then(async (outcome) => {
          if (outcome.kind !== "error") await cache.set(key, outcome, ttlMs).catch(told);
          return outcome;
        })
        .finally(() => {
          if (inflight.get(key) === entry) inflight.delete(key);
        }),
      join(signal: AbortSignal) {
        waiting++;
        const leave = () => {
          if (--waiting > 0 || sent) return;
          // Nobody waits for a request not yet sent: drop it, and let later callers start afresh.
          if (inflight.get(key) === entry) inflight.delete(key);
          queued.abort();
        };
        signal.addEventListener("abort", leave, { once: true });
        void entry.promise.finally(() => signal.removeEventListener("abort", leave));
      },
    };
    inflight.set(key, entry);
    return entry;
  }

  return async function lookup<T>(
    key: string,
    signal: AbortSignal,
    fetcher: () => Promise<Outcome<T>>,
    admit?: Admission,
  ): Promise<Outcome<T>> {
    if (signal.aborted) return abortedOutcome();
    let stopWaiting = () => {};
    const aborted = new Promise<Outcome<T>>((resolve) => {
      const onAbort = () => resolve(abortedOutcome());
      signal.addEventListener("abort", onAbort, { once: true });
      stopWaiting = () => signal.removeEventListener("abort", onAbort);
    });
    const answer = (async (): Promise<Outcome<T>> => {
      const cached = await cache.get(key).catch((error: unknown) => void told(error));
      if (cached)
        return { ...cached, summary: { ...("summary" in cached ? cached.summary : {}), cached: true } } as Outcome<T>;
      if (signal.aborted) return abortedOutcome();
      const entry = inflight.get(key) ?? start(key, fetcher, admit);
      entry.join(signal);
      return entry.promise as Promise<Outcome<T>>;
    })();
    try {
      return await Promise.race([answer, aborted]);
    } finally {
      stopWaiting();
    }
  };
}

/** What every live register client can be tuned with. */
export interface LiveClientOptions {
  /** Per request, default 5000 ms; a caller's `signal` may stop waiting earlier. */
  timeoutMs?: number;
  /** Requests in flight at once in this process, default 4; the rest queue. */
  maxConcurrent?: number;
  /** Where found / not_found answers are kept; default an in-memory LRU of 10,000. */
  cache?: AnswerCache;
  /** Default 24 h. */
  cacheTtlMs?: number;
  /** Told when the cache fails (it then counts as empty). */
  onCacheError?: (error: unknown) => void;
  /** The process's breakers, one per register (./breaker); none: every lookup asks. */
  breakers?: RegisterGuard;
  /** Requests per second per register, shared by every process; every request waits for it. None: no budget. */
  budget?: RegisterBudget;
}

/** What a live client's lookup is told of the lookup it serves. */
export type LookupInput = Pick<SourceInput, "signal" | "trigger">;

/** A live client's one way to ask its register: cached, coalesced, capped, under its breaker and budget. */
export type Ask = <T>(
  key: string,
  input: LookupInput,
  provider: Provider,
  fetch: () => Promise<Outcome<T>>,
) => Promise<Outcome<T>>;

/**
 * A live client's request timeout and its `ask`: a fresh cached answer first; else one request
 * (shared by concurrent lookups of the key), sent when the register's budget grants it, within the
 * cap on requests in flight, under the register's breaker. A create's lookup waits for its grant
 * no longer than its deadline (then it is a timeout, which a durable run retries); a grant not used
 * in time (the request waited for a place among those in flight) is replaced before the request is
 * sent, so that the register never receives more than its rate (lib/registers/budgets.ts).
 */
export function liveClient(options: LiveClientOptions): { timeoutMs: number; ask: Ask } {
  const { breakers, budget } = options;
  const lookup = createCachedLookup({
    cache: options.cache ?? memoryCache(),
    ttlMs: options.cacheTtlMs ?? 24 * 3600_000,
    limit: createLimiter(options.maxConcurrent ?? 4),
    onCacheError: options.onCacheError,
  });
  return {
    timeoutMs: options.timeoutMs ?? 5000,
    ask(key, input, provider, fetch) {
      const use = input.trigger === "job" ? "durable" : "interactive";
      let sendBy = Number.POSITIVE_INFINITY;
      const granted = async (signal: AbortSignal, again = false) => {
        const by = budget ? await budget.take(provider, use, signal, again) : sendBy;
        if (by !== null) sendBy = by;
        return by !== null;
      };
      const send = breakers ? () => breakers.guard(provider, fetch) : fetch;
      return lookup(
        key,
        input.signal,
        async () => (performance.now() <= sendBy || (await granted(input.signal, true)) ? send() : abortedOutcome()),
        async (signal) => breakers?.refusal(provider) ?? ((await granted(signal)) ? null : abortedOutcome()),
      );
    },
  };
}
