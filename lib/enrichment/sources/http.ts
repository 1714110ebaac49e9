// What every live register client needs: a bounded GET with a timeout, error classification,
// a concurrency cap, an answer cache with TTL, and coalescing of identical in-flight lookups.
import type { SourceOutcome } from "./types";

export type Outcome<T> = SourceOutcome<T>;

export class UpstreamError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export const toError = (error: unknown): Outcome<never> =>
  error instanceof UpstreamError
    ? { kind: "error", code: error.code, message: error.message }
    : { kind: "error", code: "network", message: error instanceof Error ? error.message : String(error) };

const MAX_BODY = 2 * 1024 * 1024;

/** GET returning the body text of a 200; anything else becomes an UpstreamError with a stable code. */
export async function getText(url: string, options: { timeoutMs: number; signal: AbortSignal; accept?: string }): Promise<{ text: string; contentType: string }> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  let res: Response;
  try {
    res = await fetch(url, { signal, headers: { Accept: options.accept ?? "application/json", "User-Agent": "Finca/1.0 (property enrichment)" }, redirect: "error" });
  } catch (error) {
    if (signal.aborted) throw new UpstreamError("timeout", options.signal.aborted ? "aborted by the deadline" : `no answer within ${options.timeoutMs} ms`);
    throw new UpstreamError("network", (error as Error).cause ? String((error as { cause: Error }).cause.message ?? (error as Error).cause) : (error as Error).message);
  }
  const contentType = res.headers.get("content-type") ?? "";
  let text: string;
  try {
    text = await res.text();
  } catch {
    throw new UpstreamError(signal.aborted ? "timeout" : "network", "the body was cut off");
  }
  if (text.length > MAX_BODY) throw new UpstreamError("malformed", "answer too large");
  if (res.status !== 200) throw new UpstreamError(`upstream_status_${res.status}`, `HTTP ${res.status}: ${text.slice(0, 120)}`);
  if (/^\s*</.test(text) && /html/i.test(contentType + text.slice(0, 200))) {
    // WAF and maintenance pages ("No se puede procesar su petición", "Sistema no disponible") come as HTML.
    throw new UpstreamError("upstream_html", text.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim().slice(0, 160));
  }
  return { text, contentType };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError("malformed", "the answer is not valid JSON");
  }
}

/** At most `max` calls in flight; the rest queue, and leave the queue if their signal aborts. */
export function createLimiter(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function limit<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    if (active >= max) {
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
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** Where definite answers are kept between lookups (errors are never cached). */
export interface AnswerCache {
  get(key: string): Promise<Outcome<unknown> | undefined>;
  set(key: string, value: Outcome<unknown>, ttlMs: number): Promise<void>;
}

/** A bounded in-process LRU. */
export function memoryCache(maxEntries = 10_000): AnswerCache {
  const entries = new Map<string, { value: Outcome<unknown>; expires: number }>();
  return {
    async get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      entries.delete(key);
      if (hit.expires < Date.now()) return undefined;
      entries.set(key, hit); // most recently used goes last
      return hit.value;
    },
    async set(key, value, ttlMs) {
      entries.delete(key);
      entries.set(key, { value, expires: Date.now() + ttlMs });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
  };
}

/**
 * Cached and coalesced lookups: a fresh definite answer is reused; concurrent lookups of the same
 * key share one request. The shared request runs to its own timeout whatever its callers do, so
 * an answer that arrives after a caller's deadline still fills the cache for the retry; each
 * caller stops waiting when its own signal aborts.
 */
export function createCachedLookup(cache: AnswerCache, ttlMs: number) {
  const inflight = new Map<string, Promise<Outcome<unknown>>>();
  return async function lookup<T>(key: string, signal: AbortSignal, fetcher: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
    const cached = await cache.get(key);
    if (cached) return cached as Outcome<T>;
    let shared = inflight.get(key) as Promise<Outcome<T>> | undefined;
    if (!shared) {
      shared = fetcher()
        .catch(toError)
        .then(async (outcome) => {
          if (outcome.kind !== "error") await cache.set(key, outcome, ttlMs);
          return outcome;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, shared);
    }
    return Promise.race([shared, new Promise<Outcome<T>>((resolve) => {
      if (signal.aborted) resolve({ kind: "error", code: "timeout", message: "aborted by the deadline" });
      signal.addEventListener("abort", () => resolve({ kind: "error", code: "timeout", message: "aborted by the deadline" }), { once: true });
    })]);
  };
}
