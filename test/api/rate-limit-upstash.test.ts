// The Upstash write limit (an exact sliding window in one Lua script, on @upstash/redis), run against a
// real Redis behind an Upstash-compatible REST front (test/support/upstash.ts): exact across two app
// instances and wherever the window falls on the clock, the contract's headers, and a 503 (logged,
// counted) while Upstash cannot be reached. Instance B has its own pool.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createApp, type App } from "@/server/app";
import { loadConfig } from "@/lib/config";
import { openDatabase } from "@/lib/db";
import { createPartnerApi, type PartnerApi } from "@/lib/partner-api";
import { createLogger } from "@/lib/observability/logger";
import { upstashRateLimiter } from "@/lib/rate-limit";
import { Redis } from "ioredis";
import { eventually } from "../support/wait";
import { checkLetters } from "@/lib/cadastral-reference";
import { createTestApp, newPartnerKey, post, problemOf, type TestApp } from "../support/app";
import { countOf } from "../support/database";
import { fakeSources } from "../support/fake-sources";
import { NEVER_MS } from "../support/bounds";
import { redisInstalled, startRedis, upstashFront, type RedisServer, type UpstashFront } from "../support/upstash";

const LIMIT = 100;
const TOKEN = "upstash-test-token";

describe.skipIf(!redisInstalled && !process.env.CI)("the Upstash limiter on a real Redis", () => {
  let redis: RedisServer;
  let front: UpstashFront;
  let a: TestApp;
  let b: App;
  let apis: PartnerApi[];
  const windowSeconds = 3600;
  const warnings: { msg: string }[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    front = await upstashFront(redis.port, TOKEN);
    // The front shares this process with both instances, so it answers as fast as the machine lets
    // it: the product's timeout is no bound here (down, the front refuses at once).
    const env = {
      UPSTASH_REDIS_REST_URL: front.url,
      UPSTASH_REDIS_REST_TOKEN: TOKEN,
      UPSTASH_TIMEOUT_MS: String(NEVER_MS),
      RATE_LIMIT_WINDOW_SECONDS: String(windowSeconds),
    };
    const logger = createLogger({
      level: "warn",
      format: "json",
      destination: { write: (line: string) => void warnings.push(JSON.parse(line)) },
    });
    a = await createTestApp({ sources: fakeSources(), env, logger });
    const database = await openDatabase({ url: a.testDb.url, postgres: { poolSize: 10, poolWaitMs: NEVER_MS } });
    const envB = { ENRICHMENT_DEADLINE_MS: "1500", LOG_LEVEL: "warn", ...env };
    b = await createApp({
      config: loadConfig(envB),
      database,
      sources: fakeSources(),
      workers: false,
      env: envB,
      logger,
    });
    apis = [a.api, createPartnerApi(b)];
  }, NEVER_MS);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await front?.close();
    await redis?.stop();
  });

  const unit = (n: number) => {
    const first18 = "9398516VK3799G" + String(n).padStart(4, "0");
    return first18 + checkLetters(first18);
  };

  it("allows exactly 100 of 150 concurrent writes across two instances, with the contract's headers", async () => {
    const { key } = await newPartnerKey(a.app);
    const responses = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        apis[i % 2]!.createProperty(post("/properties", { cadastral_reference: unit(i + 1) }, { "X-API-Key": key })),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150 - LIMIT);
    for (const res of responses) {
      expect(res.headers.get("ratelimit-policy")).toBe(`"writes";q=${LIMIT};w=${windowSeconds}`);
      const [, remaining, reset] = /^"writes";r=(\d+);t=(\d+)$/.exec(res.headers.get("ratelimit") ?? "") ?? [];
      expect(Number(remaining)).toBeLessThan(LIMIT);
      expect(Number(reset)).toBeLessThanOrEqual(windowSeconds);
      if (res.status === 429) {
        expect(remaining).toBe("0");
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect((await problemOf(res)).code).toBe("rate_limited");
      }
    }
  });

  it("counts every hit of the last window wherever it falls on the clock, and frees a slot as one leaves", async () => {
    const limiter = await upstashRateLimiter({
      url: front.url,
      token: TOKEN,
      limit: 3,
      windowSeconds: 60,
      timeoutMs: NEVER_MS,
    });
    const bucket = `exact-${Date.now()}`;
    // Three hits 55 s ago by Redis's clock: a window of fixed minutes would have weighed them down by now.
    const direct = new Redis({ port: redis.port, host: "127.0.0.1" });
    try {
      const [seconds, micros] = (await direct.time()).map(Number) as [number, number];
      const at = seconds * 1000 + Math.floor(micros / 1000) - 55_000;
      await direct.zadd(`finca:writes:${bucket}`, at, "a", at, "b", at, "c");
    } finally {
      direct.disconnect();
    }
    const refused = await limiter.hit(bucket);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.resetSeconds).toBeLessThanOrEqual(5);
    await eventually("a slot frees as the old hits leave the window", async () => (await limiter.hit(bucket)).allowed);
    const burst = await Promise.all(Array.from({ length: 5 }, () => limiter.hit(bucket)));
    expect(burst.filter((d) => d.allowed)).toHaveLength(2);
  });

  it("refuses writes with 503 while Upstash is unreachable (logged, counted), counts again after", async () => {
    const { key, partner } = await newPartnerKey(a.app);
    const before = (await b.metrics.rateLimiterUnavailable.get()).values[0]?.value ?? 0;
    await front.down();
    const refused = await apis[1]!.createProperty(
      post("/properties", { cadastral_reference: unit(9001) }, { "X-API-Key": key }),
    );
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await problemOf(refused)).code).toBe("service_unavailable");
    expect((await b.metrics.rateLimiterUnavailable.get()).values[0]?.value).toBe(before + 1);
    expect(warnings.map((w) => w.msg)).toContain("rate limiter (Upstash) unavailable: write refused with 503");
    expect(await countOf(a.app.db, sql`select 1 from properties where partner_id = ${partner.id}`)).toBe(0);

    await front.up();
    const counted = await apis[1]!.createProperty(
      post("/properties", { cadastral_reference: unit(9001) }, { "X-API-Key": key }),
    );
    expect(counted.status).toBe(201);
    expect(counted.headers.get("ratelimit")).toMatch(/^"writes";r=99;t=\d+$/);
  });
});
