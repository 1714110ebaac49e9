// Live mode is granted, not taken: a new organisation's live keys cannot be made, and a live key of
// an organisation without live access answers 401 as an unknown key does, until an operator
// approves an owner's request (and again when it is taken away).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { decideLiveAccess, liveRequests, requestLiveAccess } from "@/lib/partners/live";
import { createTestApp, grantLive, post, problemOf, type TestApp } from "../support/app";
import { organisation as teamOf, refusal } from "../support/team";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

const organisation = () => teamOf(t.app, ["admin"]);
const create = (key: string) =>
  t.api.createProperty(post("/properties", { cadastral_reference: "2749704YJ0624N0001DI" }, { "X-API-Key": key }));
const REQUEST = { company: "Acme Hipotecas S.A.", contact: "Ana Ruiz, ana@acme.test", use: "Mortgage book checks" };

describe("live access", () => {
  it("a new organisation makes test keys, not live ones", async () => {
    const { partnerId } = await organisation();
    expect((await createApiKey(t.app.db, { partnerId, mode: "test", name: "t" })).apiKey.mode).toBe("test");
    expect(await refusal(createApiKey(t.app.db, { partnerId, mode: "live", name: "l" }))).toMatchObject({
      code: "forbidden",
      detail: expect.stringContaining("Live keys need live access"),
    });
  });

  it("only an owner requests it, once, with what Finca needs; an operator approves it", async () => {
    const org = await organisation();
    expect(await refusal(requestLiveAccess(t.app.db, org.partnerId, org.admin, REQUEST))).toMatchObject({
      code: "forbidden",
    });
    expect(
      await refusal(requestLiveAccess(t.app.db, org.partnerId, org.owner, { ...REQUEST, use: " " })),
    ).toMatchObject({
      code: "validation_error",
      errors: [{ pointer: "/use", detail: "Say what the organisation will use live mode for." }],
    });
    expect(await requestLiveAccess(t.app.db, org.partnerId, org.owner, REQUEST)).toEqual(REQUEST);
    expect(await refusal(requestLiveAccess(t.app.db, org.partnerId, org.owner, REQUEST))).toMatchObject({
      detail: "Live access is already requested or granted.",
    });
    expect((await liveRequests(t.app.db)).find((r) => r.id === org.partnerId)).toMatchObject({
      access: "requested",
      request: REQUEST,
    });
    expect(await decideLiveAccess(t.app.db, org.partnerId, true)).toEqual({ name: expect.stringMatching(/^Team /) });
    // Decided once: a second decision finds nothing waiting.
    expect(await decideLiveAccess(t.app.db, org.partnerId, false)).toBeNull();
    expect((await createApiKey(t.app.db, { partnerId: org.partnerId, mode: "live", name: "l" })).apiKey.mode).toBe(
      "live",
    );
  });

  it("a refused request may be made again", async () => {
    const org = await organisation();
    await requestLiveAccess(t.app.db, org.partnerId, org.owner, REQUEST);
    expect(await decideLiveAccess(t.app.db, org.partnerId, false)).not.toBeNull();
    expect(await refusal(createApiKey(t.app.db, { partnerId: org.partnerId, mode: "live", name: "l" }))).not.toBeNull();
    expect(await requestLiveAccess(t.app.db, org.partnerId, org.owner, REQUEST)).toEqual(REQUEST);
  });

  it("a live key works only while its organisation has live access: otherwise 401, as an unknown key", async () => {
    const org = await organisation();
    await grantLive(t.app, org.partnerId);
    const { key } = await createApiKey(t.app.db, { partnerId: org.partnerId, mode: "live", name: "l" });
    expect((await create(key)).status).toBe(201);
    await decideLiveAccess(t.app.db, org.partnerId, false, { waiting: false });
    const refused = await create(key);
    expect([refused.status, (await problemOf(refused)).detail]).toEqual([
      401,
      "The API key is not valid or has been revoked.",
    ]);
    await grantLive(t.app, org.partnerId);
    expect((await create(key)).status).toBe(200);
  });
});
