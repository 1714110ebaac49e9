import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createCachedLookup,
  createLimiter,
  getText,
  liveClient,
  memoryCache,
  UpstreamError,
  type AnswerCache,
  type Outcome,
} from "./http";
import { startReplayServer, WAF_PAGE, type ReplayServer } from "./testing/replay-server";
import type { RegisterBudget } from "./types";

const never = () => new AbortController().signal;
/** For answers that come at once: a timeout only a hang would reach (the timeouts' own test sets short ones). */
const ANSWERED = { timeoutMs: 60_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error) => (error instanceof UpstreamError ? error.code : `other: ${error}`),
  );

describe("getText against a replay server", () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
    server.on(/^\/ok/, { body: '{"a":1}' });
    server.on(/^\/waf200/, { body: WAF_PAGE, contentType: "text/html; charset=utf-8" });
    server.on(/^\/waf-as-json/, { body: WAF_PAGE }); // an HTML page whatever the header says
    server.on(/^\/xml/, { body: "<?xml version='1.0'?><ExceptionReport/>", contentType: "text/xml" });
    server.on(/^\/status503/, {
      status: 503,
      body: "<html><body>Sistema no disponible</body></html>",
      contentType: "text/html",
    });
    server.on(/^\/hang/, { hang: true });
    server.on(/^\/slow/, { body: "{}", delayMs: 300 });
    server.on(/^\/cut/, { destroy: true });
    server.on(/^\/huge/, { body: "x".repeat(3 * 1024 * 1024) });
    server.on(/^\/moved/, { status: 301, body: "", headers: { Location: "/ok" } });
    server.on(/^\/loop/, { status: 302, body: "", headers: { Location: "/loop" } });
  });
  afterAll(() => server.close());

  it("refuses redirects unless the target is accepted, and then only a few hops", async () => {
    expect(await codeOf(getText(`${server.url}/moved`, { timeoutMs: 1000 }))).toBe("redirect");
    expect(
      await getText(`${server.url}/moved`, { timeoutMs: 1000, followTo: (url) => url.hostname === "127.0.0.1" }),
    ).toBe('{"a":1}');
    expect(await codeOf(getText(`${server.url}/loop`, { timeoutMs: 1000, followTo: () => true }))).toBe("redirect");
    expect(server.count(/^\/loop/)).toBe(4);
  });

  it("returns the body of a 200", async () => {
    expect(await getText(`${server.url}/ok`, ANSWERED)).toBe('{"a":1}');
  });

  it("classifies what is not an answer", async () => {
    expect(await codeOf(getText(`${server.url}/waf200`, ANSWERED))).toBe("upstream_html");
    expect(await codeOf(getText(`${server.url}/waf-as-json`, ANSWERED))).toBe("upstream_html");
    expect(await codeOf(getText(`${server.url}/status503`, ANSWERED))).toBe("upstream_status_503");
    expect(await codeOf(getText(`${server.url}/cut`, ANSWERED))).toBe("network");
    expect(await codeOf(getText(`${server.url}/huge`, ANSWERED))).toBe("malformed");
    expect(await codeOf(getText("http://127.0.0.1:1/refused", ANSWERED))).toBe("network");
    // XML is left to the caller (a WFS ExceptionReport is not a WAF page).
    expect(await getText(`${server.url}/xml`, ANSWERED)).toMatch(/ExceptionReport/);
  });

  it("gives up at its timeout", async () => {
    const message = (promise: Promise<unknown>) =>
      promise.catch((error: UpstreamError) => `${error.code}: ${error.message}`);
    expect(await message(getText(`${server.url}/hang`, { timeoutMs: 150 }))).toBe(
      "timeout: no complete answer within 150 ms",
    );
    expect(await message(getText(`${server.url}/slow`, { timeoutMs: 50 }))).toBe(
      "timeout: no complete answer within 50 ms",
    );
  });
});

describe("createLimiter", () => {
  it("never runs more than the cap, whatever the mix of durations and aborts", async () => {
    const limit = createLimiter(3);
    let running = 0;
    let peak = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const signal = i % 5 === 0 ? AbortSignal.timeout(5 + (i % 7)) : never();
        return codeOf(
          limit(signal, async () => {
            running++;
            peak = Math.max(peak, running);
            await sleep(1 + ((i * 7) % 11));
            running--;
          }),
        );
      }),
    );
    expect(peak).toBe(3);
    expect(outcomes.filter((o) => o === "ok").length).toBeGreaterThanOrEqual(32);
    expect(outcomes.every((o) => o === "ok" || o === "timeout")).toBe(true);
  });

  it("a freed slot goes to the next waiter: a newcomer arriving at that moment queues", async () => {
    const limit = createLimiter(1);
    let running = 0;
    let peak = 0;
    const track = async () => {
      running++;
      peak = Math.max(peak, running);
      await sleep(5);
      running--;
    };
    let finish!: () => void;
    const first = new Promise<void>((r) => (finish = r));
    const holder = limit(never(), () => first);
    const waiter = limit(never(), track);
    // Runs right after the holder's slot is freed, before the waiter has resumed.
    const newcomer = first.then(() => limit(never(), track));
    finish();
    await Promise.all([holder, waiter, newcomer]);
    expect(peak).toBe(1);
  });

  it("a queued call leaves the queue when its signal aborts, without taking a slot", async () => {
    const limit = createLimiter(1);
    let release!: () => void;
    const first = limit(never(), () => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const queued = codeOf(limit(controller.signal, async () => "ran"));
    const third = limit(never(), async () => "third");
    controller.abort();
    expect(await queued).toBe("timeout");
    release();
    await first;
    expect(await third).toBe("third");
  });

  it("refuses an already aborted signal and a nonsensical cap", async () => {
    expect(await codeOf(createLimiter(1)(AbortSignal.abort(), async () => 1))).toBe("timeout");
    expect(() => createLimiter(0)).toThrow(RangeError);
  });
});

describe("memoryCache", () => {
  const found = (n: number): Outcome<number> => ({ kind: "found", data: n, provider: "sandbox" });

  it("expires entries after their TTL", async () => {
    let now = 1000;
    const cache = memoryCache(10, () => now);
    await cache.set("a", found(1), 100);
    expect(await cache.get("a")).toEqual(found(1));
    now += 100;
    expect(await cache.get("a")).toBeUndefined();
  });

  it("is bounded, evicting the least recently used", async () => {
    const cache = memoryCache(2);
    await cache.set("a", found(1), 60_000);
    await cache.set("b", found(2), 60_000);
    await cache.get("a"); // a is now more recent than b
    await cache.set("c", found(3), 60_000);
    expect(await cache.get("b")).toBeUndefined();
    expect(await cache.get("a")).toEqual(found(1));
    expect(await cache.get("c")).toEqual(found(3));
  });
});

describe("createCachedLookup", () => {
  const found = (n: number): Outcome<number> => ({ kind: "found", data: n, provider: "sandbox", summary: { n } });

  it("caches definite answers only, and marks cache hits", async () => {
    const lookup = createCachedLookup({ cache: memoryCache(), ttlMs: 60_000, limit: createLimiter(4) });
    let calls = 0;
    const fetcher = async (): Promise<Outcome<number>> =>
      ++calls === 1 ? { kind: "error", code: "timeout", message: "slow" } : found(7);
    expect(await lookup("k", never(), fetcher)).toMatchObject({ kind: "error" });
    expect(await lookup("k", never(), fetcher)).toEqual(found(7));
    expect(await lookup("k", never(), fetcher)).toEqual({
      kind: "found",
      data: 7,
      provider: "sandbox",
      summary: { n: 7, cached: true },
    });
    expect(calls).toBe(2);
    const notFound = async (): Promise<Outcome<number>> => ({ kind: "not_found", provider: "sandbox" });
    await lookup("nf", never(), notFound);
    expect(await lookup("nf", never(), async () => found(1))).toEqual({
      kind: "not_found",
      provider: "sandbox",
      summary: { cached: true },
    });
  });

  it("turns a thrown error into an error outcome", async () => {
    const lookup = createCachedLookup({ cache: memoryCache(), ttlMs: 60_000, limit: createLimiter(4) });
    expect(
      await lookup("k", never(), async () => {
        throw new UpstreamError("malformed", "bad");
      }),
    ).toEqual({ kind: "error", code: "malformed", message: "bad" });
  });

  it("coalesces concurrent lookups of a key into one fetch", async () => {
    const lookup = createCachedLookup({ cache: memoryCache(), ttlMs: 60_000, limit: createLimiter(4) });
    let calls = 0;
    const fetcher = async () => {
      calls++;
      await sleep(30);
      return found(1);
    };
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => lookup("k", never(), fetcher)));
    expect(calls).toBe(1);
    expect(outcomes.every((o) => o.kind === "found")).toBe(true);
  });

  it("one caller's abort neither fails the others nor drops their queued fetch", async () => {
    const limit = createLimiter(1);
    const lookup = createCachedLookup({ cache: memoryCache(), ttlMs: 60_000, limit });
    let unblock!: () => void;
    const blocker = limit(never(), () => new Promise<void>((r) => (unblock = r))); // holds the only slot
    const impatient = new AbortController();
    const first = lookup("k", impatient.signal, async () => found(1));
    const second = lookup("k", never(), async () => found(2));
    await sleep(5);
    impatient.abort();
    expect(await first).toMatchObject({ kind: "error", code: "timeout" });
    unblock();
    await blocker;
    expect(await second).toEqual(found(1)); // the first caller's fetch, still queued for the second
  });

  it("drops a queued fetch once nobody waits for it", async () => {
    const limit = createLimiter(1);
    const lookup = createCachedLookup({ cache: memoryCache(), ttlMs: 60_000, limit });
    let unblock!: () => void;
    const blocker = limit(never(), () => new Promise<void>((r) => (unblock = r)));
    const fetcher = vi.fn(async () => found(1));
    const controller = new AbortController();
    const waiting = lookup("k", controller.signal, fetcher);
    await sleep(5);
    controller.abort();
    expect(await waiting).toMatchObject({ kind: "error", code: "timeout" });
    unblock();
    await blocker;
    await sleep(5);
    expect(fetcher).not.toHaveBeenCalled();
  });

  it("a request already sent runs on after its callers' deadline and fills the cache; a retry meanwhile joins it", async () => {
    const lookup = createCachedLookup({ cache: memoryCache(), ttlMs: 60_000, limit: createLimiter(4) });
    let calls = 0;
    const fetcher = async () => {
      calls++;
      await sleep(80);
      return found(3);
    };
    expect(await lookup("k", AbortSignal.timeout(20), fetcher)).toMatchObject({ kind: "error", code: "timeout" });
    expect(await lookup("k", never(), fetcher)).toEqual(found(3)); // joined the request in flight
    expect(await lookup("k", never(), fetcher)).toMatchObject({ summary: { cached: true } });
    expect(calls).toBe(1);
  });

  it("a fetch waiting for its admission (a register budget) holds no place of the limiter", async () => {
    const lookup = createCachedLookup({ cache: memoryCache(), ttlMs: 60_000, limit: createLimiter(1) });
    let admit!: (refused: null) => void;
    const held = lookup(
      "budgeted",
      never(),
      async () => found(1),
      () => new Promise<null>((r) => (admit = r)),
    );
    // The only place is free for a lookup that needs no admission.
    expect(await lookup("inline", never(), async () => found(2))).toEqual(found(2));
    admit(null);
    expect(await held).toEqual(found(1));
  });

  it("a fetch its admission refuses is not sent, and its answer is the refusal's", async () => {
    const lookup = createCachedLookup({ cache: memoryCache(), ttlMs: 60_000, limit: createLimiter(1) });
    const fetcher = vi.fn(async () => found(1));
    const refusal = { kind: "error", code: "register_unavailable", message: "open" } as const;
    expect(await lookup("k", never(), fetcher, async () => refusal)).toEqual(refusal);
    expect(fetcher).not.toHaveBeenCalled();
  });

  it("a failing shared cache counts as empty, and says so", async () => {
    const broken: AnswerCache = {
      get: async () => {
        throw new Error("db down");
      },
      set: async () => {
        throw new Error("db down");
      },
    };
    const told: unknown[] = [];
    const lookup = createCachedLookup({
      cache: broken,
      ttlMs: 60_000,
      limit: createLimiter(4),
      onCacheError: (e) => told.push(e),
    });
    expect(await lookup("k", never(), async () => found(5))).toEqual(found(5));
    expect(told.map((e) => (e as Error).message)).toEqual(["db down", "db down"]);
  });
});

describe("liveClient under a register budget", () => {
  const found = (n: number): Outcome<number> => ({ kind: "found", data: n, provider: "sandbox" });
  /** A budget that grants at once, each grant good for `freshMs`, and says what it granted. */
  const granting = (freshMs: number) => {
    const taken: string[] = [];
    const budget: RegisterBudget = {
      async take(_provider, use, _signal, again) {
        taken.push(again ? `${use} again` : use);
        return performance.now() + freshMs;
      },
    };
    return { budget, taken };
  };

  it("takes a grant for every request, a create's inline lookup as interactive, a durable run's as durable", async () => {
    const { budget, taken } = granting(60_000);
    const { ask } = liveClient({ budget });
    await ask("a", { signal: never() }, "catastro-ovc", async () => found(1));
    await ask("b", { signal: never(), trigger: "inline" }, "catastro-ovc", async () => found(2));
    await ask("c", { signal: never(), trigger: "job" }, "catastro-ovc", async () => found(3));
    // A cached answer sends nothing, so it takes nothing.
    await ask("c", { signal: never(), trigger: "job" }, "catastro-ovc", async () => found(4));
    expect(taken).toEqual(["interactive", "interactive", "durable"]);
  });

  it("replaces a grant gone stale while the request waited for a place among those in flight", async () => {
    const { budget, taken } = granting(20);
    const { ask } = liveClient({ budget, maxConcurrent: 1 });
    const first = ask("a", { signal: never() }, "catastro-ovc", async () => {
      await sleep(60);
      return found(1);
    });
    const second = ask("b", { signal: never() }, "catastro-ovc", async () => found(2));
    expect(await Promise.all([first, second])).toEqual([found(1), found(2)]);
    // The second's first grant was 60 ms old when its place came: it asked again, ahead of the queue.
    expect(taken).toEqual(["interactive", "interactive", "interactive again"]);
  });

  it("answers a timeout, sending nothing, when the deadline comes before the grant", async () => {
    const budget: RegisterBudget = {
      take: (_provider, _use, signal) =>
        new Promise((resolve) => signal.addEventListener("abort", () => resolve(null), { once: true })),
    };
    const fetch = vi.fn(async () => found(1));
    const { ask } = liveClient({ budget });
    expect(await ask("a", { signal: AbortSignal.timeout(20) }, "catastro-ovc", fetch)).toMatchObject({
      kind: "error",
      code: "timeout",
    });
    expect(fetch).not.toHaveBeenCalled();
  });
});
