// A key's check rides on the statement each request makes anyway (route.ts), so a revoke, a roll
// or an expiry made through one instance holds on the next request to any other: no instance keeps
// a key it was told about. Instance B is an App of its own (own pool, own queue) on the same
// database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createApp, type App } from "@/server/app";
import { loadConfig } from "@/lib/config";
import { openDatabase, rowsOf, schema } from "@/lib/db";
import { createApiKey, revokeApiKey, rollApiKey } from "@/lib/api-keys";
import { createPartnerApi, type PartnerApi } from "@/lib/partner-api";
import { createTestApp, get, newPartnerKey, post, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { NEVER_MS } from "../support/bounds";
import { eventually } from "../support/wait";

let a: TestApp;
let b: App;
let apiB: PartnerApi;
beforeAll(async () => {
  a = await createTestApp({ sources: fakeSources() });
  const env = { ENRICHMENT_DEADLINE_MS: "1500", LOG_LEVEL: "warn" };
  const database = await openDatabase({ url: a.testDb.url, postgres: { poolSize: 4, poolWaitMs: NEVER_MS } });
  b = await createApp({ config: loadConfig(env), database, sources: fakeSources(), workers: false, env });
  apiB = createPartnerApi(b);
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const listOnB = async (key: string) => (await apiB.listProperties(get("/properties", { "X-API-Key": key }))).status;
const createOnB = (key: string, reference = "2749704YJ0624N0001DI") =>
  apiB.createProperty(post("/properties", { cadastral_reference: reference }, { "X-API-Key": key }));

describe("a key changed through instance A, next request on instance B", () => {
  it("revoked: 401 on B's next read and write", async () => {
    const made = await newPartnerKey(a.app);
    expect(await listOnB(made.key)).toBe(200);
    expect((await createOnB(made.key)).status).toBe(201);
    await revokeApiKey(a.app.db, made.apiKey.id);
    expect(await listOnB(made.key)).toBe(401);
    expect((await createOnB(made.key)).status).toBe(401);
  });

  it("rolled to expire now: 401 on B; the new key works there at once", async () => {
    const made = await newPartnerKey(a.app);
    expect(await listOnB(made.key)).toBe(200);
    const rolled = await rollApiKey(a.app.db, { id: made.apiKey.id, partnerId: made.partner.id, expiresInSeconds: 0 });
    expect(await listOnB(made.key)).toBe(401);
    expect(await listOnB(rolled!.key)).toBe(200);
  });

  it("rolled to expire soon: works on B until the database's clock passes its expiry, then 401", async () => {
    const made = await newPartnerKey(a.app);
    await rollApiKey(a.app.db, { id: made.apiKey.id, partnerId: made.partner.id, expiresInSeconds: 2 });
    const { apiKeys } = schema;
    const expired = async () =>
      rowsOf<{ expired: boolean }>(
        await a.app.db.execute(
          sql`select ${apiKeys.expiresAt} <= now() as expired from ${apiKeys} where ${apiKeys.id} = ${made.apiKey.id}`,
        ),
      )[0]!.expired;
    // Asked before and after the database says it expired, never judged by this process's clock.
    if (!(await expired())) expect(await listOnB(made.key)).toBe(200);
    await eventually("the rolled key's expiry passes on the database's clock", expired);
    expect(await listOnB(made.key)).toBe(401);
  });
});

describe("what the key's statement counts and records", () => {
  it("a revoked key's writes count nothing against its partner's limit", async () => {
    const made = await newPartnerKey(a.app);
    const revoked = await createApiKey(a.app.db, { partnerId: made.partner.id, mode: "test", name: "old" });
    await revokeApiKey(a.app.db, revoked.apiKey.id);
    for (let i = 0; i < 5; i++) expect((await createOnB(revoked.key)).status).toBe(401);
    const counted = await createOnB(made.key);
    expect(counted.headers.get("ratelimit")).toMatch(/^"writes";r=99;t=\d+$/);
  });

  it("records a key's last use once, not again within the minute", async () => {
    const made = await newPartnerKey(a.app);
    const { apiKeys } = schema;
    const lastUsed = async () =>
      rowsOf<{ at: string | null }>(
        await a.app.db.execute(
          sql`select ${apiKeys.lastUsedAt}::text as at from ${apiKeys} where ${apiKeys.id} = ${made.apiKey.id}`,
        ),
      )[0]!.at;
    expect(await lastUsed()).toBeNull();
    expect(await listOnB(made.key)).toBe(200);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    expect((await createOnB(made.key, "9398516VK3799G0002SU")).status).toBe(201);
    expect(await lastUsed()).toBe(first);
  });
});
