import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, newPartnerKey, post, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

// 401, then 429, then 422, then 400, when several apply.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

const status = async (req: Request) => (await t.api.createProperty(req)).status;

describe("error precedence", () => {
  it("401 beats 422 and 400", async () => {
    expect(await status(post("/properties", "{not json", {}))).toBe(401);
    expect(await status(post("/properties", { cadastral_reference: "bad" }, { "X-API-Key": "finca_test_nope" }))).toBe(
      401,
    );
    expect(await status(post("/properties", { cadastral_reference: "bad" }, { "Content-Type": "text/plain" }))).toBe(
      401,
    );
  });

  it("422 beats 400 (an extra field with a bad reference)", async () => {
    const { key } = await newPartnerKey(t.app);
    expect(await status(post("/properties", { cadastral_reference: "bad", extra: 1 }, { "X-API-Key": key }))).toBe(422);
  });

  it("429 beats 422 and 400; 401 still beats 429", async () => {
    const { key } = await newPartnerKey(t.app);
    for (let i = 0; i < 100; i++)
      await status(post("/properties", { cadastral_reference: "bad" }, { "X-API-Key": key }));
    expect(await status(post("/properties", "{not json", { "X-API-Key": key }))).toBe(429);
    expect(await status(post("/properties", { cadastral_reference: "bad" }, { "X-API-Key": key }))).toBe(429);
    expect(await status(post("/properties", "{not json", { "X-API-Key": key.slice(0, -2) }))).toBe(401);
  });
});
