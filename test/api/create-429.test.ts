import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, get, newPartnerKey, post, problemOf, type TestApp, grantLive } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { createApiKey } from "@/lib/api-keys";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

const bad = { cadastral_reference: "bad" }; // 400s are cheap and still count

describe("→ 429 rate_limited", () => {
  it("allows exactly 100 writes per partner and mode, then 429 with Retry-After in seconds", async () => {
    const { key } = await newPartnerKey(t.app);
    const remaining: number[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await t.api.createProperty(post("/properties", bad, { "X-API-Key": key }));
      expect(res.status).toBe(400);
      remaining.push(Number(/r=(\d+)/.exec(res.headers.get("ratelimit")!)![1]));
    }
    expect(remaining[0]).toBe(99);
    expect(remaining.at(-1)).toBe(0);
    const res = await t.api.createProperty(
      post("/properties", { cadastral_reference: "2749704YJ0624N0001DI" }, { "X-API-Key": key }),
    );
    expect(res.status).toBe(429);
    const problem = await problemOf(res);
    expect(problem).toMatchObject({ code: "rate_limited", status: 429 });
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get("ratelimit")).toBe(`"writes";r=0;t=${retryAfter}`);
    expect(res.headers.get("ratelimit-policy")).toBe('"writes";q=100;w=60');
  });

  it("all keys of a partner share the limit; another partner and the other mode do not", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const second = await createApiKey(t.app.db, { partnerId: partner.id, mode: "test", name: "second" });
    await grantLive(t.app, partner.id);
    const live = await createApiKey(t.app.db, { partnerId: partner.id, mode: "live", name: "live" });
    for (let i = 0; i < 50; i++) await t.api.createProperty(post("/properties", bad, { "X-API-Key": key }));
    for (let i = 0; i < 50; i++) await t.api.createProperty(post("/properties", bad, { "X-API-Key": second.key }));
    expect((await t.api.createProperty(post("/properties", bad, { "X-API-Key": key }))).status).toBe(429);
    expect((await t.api.createProperty(post("/properties", bad, { "X-API-Key": live.key }))).status).toBe(400);
    const other = await newPartnerKey(t.app);
    expect((await t.api.createProperty(post("/properties", bad, { "X-API-Key": other.key }))).status).toBe(400);
  });

  it("reads are not limited and carry no write headers", async () => {
    const { key } = await newPartnerKey(t.app);
    for (let i = 0; i < 100; i++) await t.api.createProperty(post("/properties", bad, { "X-API-Key": key }));
    const res = await t.api.listProperties(get("/properties", { "X-API-Key": key }));
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit")).toBeNull();
  });
});
