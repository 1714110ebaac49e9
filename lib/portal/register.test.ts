// The portal's "register a property" must behave like the API: same messages, same shared budget.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, newPartnerKey, post, problemOf, type TestApp } from "@/test/support/app";
import { fakeSources } from "@/test/support/fake-sources";
import { accountChange, countAccountWrite, countPortalWrite, registerFromPortal } from "./register";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources(), env: { RATE_LIMIT_WRITES: "3" } });
});
afterAll(() => t.close());

describe("registerFromPortal", () => {
  it("answers an invalid reference with the API's detail", async () => {
    for (const input of ["12345", "2749704YJ0624N0001XX", "2749704YJ0624N00$1DI"]) {
      const { key, partner } = await newPartnerKey(t.app); // a fresh budget each time (the limit is 3 here)
      const api = await problemOf(
        await t.api.createProperty(post("/properties", { cadastral_reference: input }, { "X-API-Key": key })),
      );
      const portal = await registerFromPortal(t.app, { partnerId: partner.id, mode: "test" }, input);
      expect(portal).toEqual({ ok: false, code: api.code, detail: api.detail });
    }
  });

  it("registers through the API's path (idempotent on the reference) and counts against the partner's limit", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    const first = await registerFromPortal(t.app, scope, "2749704-YJ0624N 0001di");
    expect(first).toMatchObject({ ok: true, created: true, property: { cadastral_reference: "2749704YJ0624N0001DI" } });
    const again = await registerFromPortal(t.app, scope, "2749704YJ0624N0001DI");
    expect(again).toMatchObject({ ok: true, created: false });
    // Two portal writes + one API write use the budget of 3: the next, from either side, is refused.
    expect(
      (
        await t.api.createProperty(
          post("/properties", { cadastral_reference: "2749704YJ0624N0001DI" }, { "X-API-Key": key }),
        )
      ).status,
    ).toBe(200);
    const api = await problemOf(
      await t.api.createProperty(
        post("/properties", { cadastral_reference: "2749704YJ0624N0001DI" }, { "X-API-Key": key }),
      ),
    );
    const portal = await registerFromPortal(t.app, scope, "2749704YJ0624N0001DI");
    expect(api.code).toBe("rate_limited");
    expect(portal).toMatchObject({ ok: false, code: "rate_limited" });
    expect(portal.ok || portal.detail).toMatch(/^At most 3 write requests per 60 s; retry after \d+ s\.$/);
    // The live bucket of the same partner is separate.
    expect(await registerFromPortal(t.app, { partnerId: partner.id, mode: "live" }, "bad")).toMatchObject({
      ok: false,
      code: "invalid_cadastral_reference",
    });
  });

  it("key and endpoint changes have a budget of their own: a bulk load that spent the API's does not lock the account", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    for (let i = 0; i < 3; i++)
      expect(
        (await t.api.createProperty(post("/properties", { cadastral_reference: "bad" }, { "X-API-Key": key }))).status,
      ).toBe(400);
    await expect(countPortalWrite(t.app, scope)).rejects.toMatchObject({ code: "rate_limited" });
    for (let i = 0; i < 3; i++) await countAccountWrite(t.app, scope);
    await expect(countAccountWrite(t.app, scope)).rejects.toMatchObject({ code: "rate_limited" });
  });

  it("every button change (revoke, rotate, test event, replay...) is counted first: past the budget it is refused, and not made", async () => {
    const { partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    let made = 0;
    const change = async () => ++made;
    for (let i = 1; i <= 3; i++) expect(await accountChange(t.app, scope, change)).toEqual({ done: i });
    const refused = await accountChange(t.app, scope, change);
    expect(refused).toEqual({
      refused: expect.stringMatching(/^At most 3 write requests per 60 s; retry after \d+ s\.$/),
    });
    expect(made).toBe(3);
    // Another error is the change's own, not a refusal.
    const other = await newPartnerKey(t.app);
    const failing = accountChange(t.app, { partnerId: other.partner.id, mode: "test" }, async () => {
      throw new Error("the change failed");
    });
    await expect(failing).rejects.toThrow("the change failed");
  });
});
