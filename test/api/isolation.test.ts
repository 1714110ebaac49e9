import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, get, newPartnerKey, post, problemOf, type TestApp, grantLive } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { createApiKey } from "@/lib/api-keys";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

const REF = "2749704YJ0624N0001DI";

describe("test/live and partner isolation", () => {
  it("test and live keys of one partner never see each other's properties", async () => {
    const { key: testKey, partner } = await newPartnerKey(t.app, "test");
    await grantLive(t.app, partner.id);
    const { key: liveKey } = await createApiKey(t.app.db, { partnerId: partner.id, mode: "live", name: "live" });
    const inTest = await (
      await t.api.createProperty(post("/properties", { cadastral_reference: REF }, { "X-API-Key": testKey }))
    ).json();
    // Same reference in live mode is a different property: 201, not 200.
    const liveRes = await t.api.createProperty(
      post("/properties", { cadastral_reference: REF }, { "X-API-Key": liveKey }),
    );
    expect(liveRes.status).toBe(201);
    const inLive = await liveRes.json();
    expect(inLive.property_id).not.toBe(inTest.property_id);

    expect((await t.api.getProperty(get(`/properties/${inTest.property_id}`, { "X-API-Key": liveKey }))).status).toBe(
      404,
    );
    expect((await t.api.getProperty(get(`/properties/${inLive.property_id}`, { "X-API-Key": testKey }))).status).toBe(
      404,
    );
    const liveList = await (await t.api.listProperties(get("/properties", { "X-API-Key": liveKey }))).json();
    expect(liveList.data.map((p: { property_id: string }) => p.property_id)).toEqual([inLive.property_id]);
  });

  it("another partner's property is 404 not_found, indistinguishable from a missing one", async () => {
    const a = await newPartnerKey(t.app);
    const b = await newPartnerKey(t.app);
    const created = await (
      await t.api.createProperty(post("/properties", { cadastral_reference: REF }, { "X-API-Key": a.key }))
    ).json();
    const res = await t.api.getProperty(get(`/properties/${created.property_id}`, { "X-API-Key": b.key }));
    expect(res.status).toBe(404);
    const problem = await problemOf(res);
    expect(problem.code).toBe("not_found");
    const missing = await t.api.getProperty(
      get(`/properties/00000000-0000-4000-8000-000000000000`, { "X-API-Key": b.key }),
    );
    expect((await problemOf(missing)).detail).toBe(problem.detail);
    const list = await (await t.api.listProperties(get("/properties", { "X-API-Key": b.key }))).json();
    expect(list.data).toEqual([]);
  });
});
