import { afterAll, beforeAll, expect, it } from "vitest";
import { inArray, sql } from "drizzle-orm";
import { createApp, type App } from "@/server/app";
import { loadConfig } from "@/lib/config";
import { openDatabase, rowsOf, schema } from "@/lib/db";
import { createPartnerApi } from "@/lib/partner-api";
import { createTestApp, newPartnerKey, post, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { NEVER_MS } from "../support/bounds";
import { checkLetters } from "@/lib/cadastral-reference";
import { countBy } from "../support/count-by";

// 1,000 simultaneous writes from 10 partners with different demands (55, 65, ..., 145; limit 100):
// each partner gets exactly min(n, 100) creates and a 429 for every other write, and exactly the
// accepted properties are stored. The writes go through two independent app instances (own pools,
// own queues) sharing the database.
const LIMIT = 100;
const DEMANDS = Array.from({ length: 10 }, (_, i) => 55 + 10 * i);
// The sliding window must hold the whole burst, however slow the machine (a few seconds idle): an
// hour, where the product's minute would let a burst slower than a minute through twice.
const WINDOW_SECONDS = 3600;

let t: TestApp;
let second: App;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources(), env: { RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) } });
  const env = { ENRICHMENT_DEADLINE_MS: "1500", RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) };
  const database = await openDatabase({ url: t.testDb.url, postgres: { poolSize: 10, poolWaitMs: NEVER_MS } });
  second = await createApp({ config: loadConfig(env), database, sources: fakeSources(), workers: false, env });
});
afterAll(async () => {
  await second.close();
  await t.close();
});

const unit = (n: number) => {
  const first18 = "9398516VK3799G" + String(n).padStart(4, "0");
  return first18 + checkLetters(first18);
};

it("is exact for 1,000 concurrent writes of 10 partners across two app instances", async () => {
  expect(t.app.config.RATE_LIMIT_WRITES).toBe(LIMIT);
  const partners = await Promise.all(DEMANDS.map(async (demand) => ({ demand, ...(await newPartnerKey(t.app)) })));
  // Interleaved: every partner's writes are spread over the whole burst and over both instances.
  const writes = partners.flatMap((p, index) =>
    Array.from({ length: p.demand }, (_, i) => ({ index, reference: unit(i + 1), order: i / p.demand })),
  );
  writes.sort((a, b) => a.order - b.order || a.index - b.index);
  const apis = [t.api, ...(second ? [createPartnerApi(second)] : [])];
  const requests = writes.map((w) =>
    post("/properties", { cadastral_reference: w.reference }, { "X-API-Key": partners[w.index]!.key }),
  );
  const responses = await Promise.all(requests.map((req, i) => apis[i % apis.length]!.createProperty(req)));
  expect(responses.length).toBe(1000);

  const results = await Promise.all(
    responses.map(async (res, i) => ({
      partner: writes[i]!.index,
      status: res.status,
      policy: res.headers.get("ratelimit-policy"),
      rateLimit: /^"writes";r=(\d+);t=(\d+)$/.exec(res.headers.get("ratelimit") ?? ""),
      retryAfter: res.headers.get("retry-after"),
      contentType: res.headers.get("content-type"),
      body: (await res.json()) as { code?: string },
    })),
  );
  for (const [index, { demand }] of partners.entries()) {
    const mine = results.filter((r) => r.partner === index);
    const accepted = Math.min(demand, LIMIT);
    expect({ demand, statuses: countBy(mine, (r) => String(r.status)) }).toEqual({
      demand,
      statuses: demand > LIMIT ? { 201: accepted, 429: demand - accepted } : { 201: accepted },
    });
    for (const r of mine) {
      expect(r.policy).toBe(`"writes";q=${LIMIT};w=${WINDOW_SECONDS}`);
      expect(r.rateLimit).not.toBeNull();
    }
    // Each accepted write was counted once, in some order: the remainders are LIMIT-1 down to LIMIT-accepted.
    const remainders = mine.filter((r) => r.status === 201).map((r) => Number(r.rateLimit![1]));
    expect(remainders.sort((a, b) => b - a)).toEqual(Array.from({ length: accepted }, (_, i) => LIMIT - 1 - i));
    for (const r of mine.filter((r) => r.status === 429)) {
      expect(r.contentType).toMatch(/^application\/problem\+json/);
      expect(r.body.code).toBe("rate_limited");
      expect(r.rateLimit![1]).toBe("0");
      expect(Number(r.rateLimit![2])).toBeGreaterThanOrEqual(1);
      expect(r.retryAfter).toMatch(/^[1-9]\d*$/);
      expect(Number(r.retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS);
    }
  }

  // Exactly the accepted creates were stored, partner by partner.
  const { properties } = schema;
  const stored = rowsOf<{ partner_id: string; n: number }>(
    await t.app.db.execute(
      sql`select ${properties.partnerId} as partner_id, count(*)::int as n from ${properties} where ${inArray(
        properties.partnerId,
        partners.map((p) => p.partner.id),
      )} group by 1`,
    ),
  );
  const storedBy = new Map(stored.map((s) => [s.partner_id, s.n]));
  expect(partners.map((p) => storedBy.get(p.partner.id) ?? 0)).toEqual(partners.map((p) => Math.min(p.demand, LIMIT)));
  expect(stored.reduce((sum, s) => sum + s.n, 0)).toBe(results.filter((r) => r.status === 201).length);
});
