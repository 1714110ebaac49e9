import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, get, newPartnerKey, post, problemOf, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { generateApiKey, revokeApiKey, rollApiKey } from "@/lib/api-keys";

let t: TestApp;
let key: string;
let apiKeyId: string;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
  const made = await newPartnerKey(t.app);
  key = made.key;
  apiKeyId = made.apiKey.id;
});
afterAll(() => t.close());

const body = { cadastral_reference: "2749704YJ0624N0001DI" };

async function expect401(res: Response) {
  expect(res.status).toBe(401);
  const problem = await problemOf(res);
  expect(problem).toMatchObject({ status: 401, code: "missing_api_key", type: "/docs/errors#missing_api_key" });
  // Unauthenticated requests are not counted, so they carry no rate-limit headers.
  expect(res.headers.get("ratelimit")).toBeNull();
  expect(res.headers.get("x-request-id")).toBe(problem.request_id);
}

describe("→ 401 missing_api_key", () => {
  it("missing header", async () => {
    await expect401(await t.api.createProperty(post("/properties", body)));
  });
  it("empty header", async () => {
    await expect401(await t.api.createProperty(post("/properties", body, { "X-API-Key": "  " })));
  });
  it("malformed key", async () => {
    await expect401(await t.api.createProperty(post("/properties", body, { "X-API-Key": "not-a-key" })));
  });
  it("well-formed key that does not exist", async () => {
    await expect401(await t.api.createProperty(post("/properties", body, { "X-API-Key": generateApiKey("test") })));
  });
  it("key with a broken checksum", async () => {
    const broken = key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");
    await expect401(await t.api.createProperty(post("/properties", body, { "X-API-Key": broken })));
  });
  it("revoked key, on every operation", async () => {
    const ok = await t.api.createProperty(post("/properties", body, { "X-API-Key": key }));
    expect(ok.status).toBe(201);
    const { property_id } = await ok.json();
    await revokeApiKey(t.app.db, apiKeyId);
    await expect401(await t.api.createProperty(post("/properties", body, { "X-API-Key": key })));
    await expect401(await t.api.getProperty(get(`/properties/${property_id}`, { "X-API-Key": key })));
    await expect401(await t.api.listProperties(get("/properties", { "X-API-Key": key })));
  });
  it("a rolled key after its expiry, while the new key works", async () => {
    const made = await newPartnerKey(t.app);
    const rolled = await rollApiKey(t.app.db, {
      id: made.apiKey.id,
      partnerId: made.apiKey.partnerId,
      expiresInSeconds: 0,
    });
    expect(rolled).not.toBeNull();
    await expect401(await t.api.listProperties(get("/properties", { "X-API-Key": made.key })));
    expect((await t.api.listProperties(get("/properties", { "X-API-Key": rolled!.key }))).status).toBe(200);
  });
});
