// One command per write: the portal parses its forms with the API's request schemas and calls the
// API's own commands, so it accepts and refuses what the API does, with its messages, and counts on
// the budgets the contract names (the partner's write budget for properties and portfolios, the
// account's own for keys and endpoints).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { createProperty, CreatePropertyInput } from "@/lib/properties";
import { previewUpload } from "@/lib/batches";
import {
  addEndpoint,
  changeEndpoint,
  CreateWebhookEndpointInput,
  expireOldSecret,
  removeEndpoint,
  replayFailed,
  RotateSecretInput,
  rotateEndpointSecret,
  sendEndpointTest,
} from "@/lib/webhooks/commands";
import { accountBucket, budgetOn, operatorBucket, rateLimitBucket, spent, unlessRefused } from "@/lib/rate-limit";
import { parseBody, type Scope } from "@/lib/domain";
import { createTestApp, grantLive, newPartnerKey, post, problemOf, type TestApp } from "@/test/support/app";
import { fakeSources } from "@/test/support/fake-sources";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources(), env: { RATE_LIMIT_WRITES: "3" } });
});
afterAll(() => t.close());

const writes = (scope: Scope) => budgetOn(t.app.rateLimiter, rateLimitBucket(scope));
const account = (scope: Scope) => budgetOn(t.app.rateLimiter, accountBucket(scope));
/** A portal user's write: on the account's budget. */
const by = (scope: Scope) => ({
  actor: { userId: null, label: "owner@example.test", address: null },
  budget: account(scope),
});
/** A portal create as its action makes it: the form parsed by the API's schema, then the command. */
const portalCreate = async (scope: Scope, form: unknown) =>
  createProperty(t.app, scope, writes(scope), parseBody(CreatePropertyInput, form));
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe("createProperty from the portal", () => {
  it("refuses an invalid reference with the API's code and detail", async () => {
    for (const input of ["12345", "2749704YJ0624N0001XX", "2749704YJ0624N00$1DI"]) {
      const { key, partner } = await newPartnerKey(t.app); // a fresh budget each time (the limit is 3 here)
      const api = await problemOf(
        await t.api.createProperty(post("/properties", { cadastral_reference: input }, { "X-API-Key": key })),
      );
      const scope = { partnerId: partner.id, mode: "test" as const };
      const portal = await refusal(portalCreate(scope, { cadastral_reference: input }));
      expect(portal).toMatchObject({ code: api.code, detail: api.detail });
    }
  });

  it("registers as the API does (idempotent on the reference) and shares the partner's write budget", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    const first = await createProperty(t.app, scope, writes(scope), { cadastral_reference: "2749704-YJ0624N 0001di" });
    expect(first).toMatchObject({ created: true, property: { cadastral_reference: "2749704YJ0624N0001DI" } });
    const again = await createProperty(t.app, scope, writes(scope), { cadastral_reference: "2749704YJ0624N0001DI" });
    expect(again).toMatchObject({ created: false, property: { property_id: first.property.property_id } });
    // Two portal writes + one API write spend the budget of 3: the next, from either side, is refused.
    const body = { cadastral_reference: "2749704YJ0624N0001DI" };
    expect((await t.api.createProperty(post("/properties", body, { "X-API-Key": key }))).status).toBe(200);
    expect((await problemOf(await t.api.createProperty(post("/properties", body, { "X-API-Key": key })))).code).toBe(
      "rate_limited",
    );
    const portal = await refusal(portalCreate(scope, body));
    expect(portal).toMatchObject({
      code: "rate_limited",
      detail: expect.stringMatching(/^At most 3 write requests per 60 s; retry after \d+ s\.$/),
    });
    // The live bucket of the same partner is separate, and a bad reference is counted there too.
    await grantLive(t.app, partner.id);
    const live = { partnerId: partner.id, mode: "live" as const };
    expect(await refusal(portalCreate(live, { cadastral_reference: "bad" }))).toMatchObject({
      code: "invalid_cadastral_reference",
    });
  });

  it("a form off the schema is refused before it counts; past the budget nothing is written", async () => {
    const { partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    for (let i = 0; i < 3; i++)
      expect(await refusal(portalCreate(scope, { nonsense: 1 }))).toMatchObject({ code: "validation_error" });
    for (let i = 0; i < 3; i++) await writes(scope)();
    expect(await refusal(portalCreate(scope, { cadastral_reference: "2749704YJ0624N0001DI" }))).toMatchObject({
      code: "rate_limited",
    });
    const rows = await t.app.db.select().from(schema.properties).where(eq(schema.properties.partnerId, partner.id));
    expect(rows).toEqual([]);
  });
});

describe("a portfolio file's preview from the portal", () => {
  it("counts on the partner's write budget, as submitting it does: past it the file is not read", async () => {
    const { partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    let reads = 0;
    async function* body() {
      reads++;
      yield new TextEncoder().encode("refcat\n2749704YJ0624N0001DI\n");
    }
    const preview = () => previewUpload(t.app, scope, writes(scope), { format: "csv", body: body() });
    for (let i = 0; i < 3; i++) expect(await preview()).toMatchObject({ total: 1 });
    expect(await refusal(preview())).toMatchObject({ code: "rate_limited" });
    expect(reads).toBe(3);
  });
});

describe("webhook endpoint commands from the portal", () => {
  it("check the API's request schema and URL rules, with the API's field errors", async () => {
    const { key, partner } = await newPartnerKey(t.app, "live");
    const scope = { partnerId: partner.id, mode: "live" as const };
    for (const body of [{ url: "http://example.com/hook" }, { url: "https://example.com/h", colour: "red" }, {}]) {
      const api = await problemOf(
        await t.api.createWebhookEndpoint(post("/webhook-endpoints", body, { "X-API-Key": key })),
      );
      const portal = await refusal(
        (async () => addEndpoint(t.app, scope, by(scope), parseBody(CreateWebhookEndpointInput, body)))(),
      );
      expect(portal).toMatchObject({ code: api.code, detail: api.detail, errors: api.errors });
    }
  });

  it("add, change and remove on the account's budget: a spent one refuses and changes nothing", async () => {
    const { partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    const { endpoint } = await addEndpoint(t.app, scope, by(scope), { url: "https://example.com/hook" });
    const off = await changeEndpoint(t.app, scope, by(scope), endpoint.id, { enabled: false });
    expect(off).toMatchObject({ enabled: false, disabledReason: "disabled_by_partner" });
    // The partner's write budget is untouched by all this: a bulk load cannot lock the account, nor this it.
    for (let i = 0; i < 3; i++) await writes(scope)();
    expect(await removeEndpoint(t.app, scope, by(scope), endpoint.id)).toBe(true);
    // Three account writes made: the fourth is refused before it looks at anything.
    const another = refusal(addEndpoint(t.app, scope, by(scope), { url: "https://example.com/other" }));
    expect(await another).toMatchObject({ code: "rate_limited" });
    const rows = await t.app.db
      .select()
      .from(schema.webhookEndpoints)
      .where(eq(schema.webhookEndpoints.partnerId, partner.id));
    expect(rows.map((r) => r.url)).toEqual(["https://example.com/hook"]);
  });
});

describe("endpoint commands check a member's role themselves", () => {
  it("a viewer's add, change and remove are refused before anything is counted, and change nothing", async () => {
    const { partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    const { endpoint } = await addEndpoint(t.app, scope, by(scope), { url: "https://example.com/hook" });
    const viewer = { actor: { ...by(scope).actor, role: "viewer" as const }, budget: account(scope) };
    for (const attempt of [
      addEndpoint(t.app, scope, viewer, { url: "https://example.com/other" }),
      changeEndpoint(t.app, scope, viewer, endpoint.id, { enabled: false }),
      removeEndpoint(t.app, scope, viewer, endpoint.id),
    ])
      expect(await refusal(attempt)).toMatchObject({
        code: "forbidden",
        detail: expect.stringMatching(/^Your role \(viewer\) cannot change webhook endpoints/),
      });
    const developer = { actor: { ...by(scope).actor, role: "developer" as const }, budget: account(scope) };
    // One write spent of 3 (the first add): the viewer's three counted nothing.
    expect(await changeEndpoint(t.app, scope, developer, endpoint.id, { enabled: false })).toMatchObject({
      enabled: false,
    });
    expect(await removeEndpoint(t.app, scope, developer, endpoint.id)).toBe(true);
  });

  it("so do the secret, test event and replay commands, which record each change in the history", async () => {
    const { partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    const { endpoint } = await addEndpoint(t.app, scope, by(scope), { url: "https://example.com/hook" });
    const viewer = { actor: { ...by(scope).actor, role: "viewer" as const }, budget: account(scope) };
    const rotation = parseBody(RotateSecretInput, { overlap: "1h", end_open_overlap: false });
    for (const attempt of [
      rotateEndpointSecret(t.app, scope, viewer, endpoint, rotation),
      expireOldSecret(t.app, scope, viewer, endpoint),
      sendEndpointTest(t.app, scope, viewer, endpoint),
      replayFailed(t.app, scope, viewer, endpoint),
    ])
      expect(await refusal(attempt)).toMatchObject({ code: "forbidden" });
    const developer = { actor: { ...by(scope).actor, role: "developer" as const }, budget: account(scope) };
    // Two writes left of 3 (the add spent one; the viewer's four counted nothing).
    expect(await rotateEndpointSecret(t.app, scope, developer, endpoint, rotation)).toMatchObject({ rotated: true });
    expect(await expireOldSecret(t.app, scope, developer, endpoint)).toBe(true);
    expect(await refusal(sendEndpointTest(t.app, scope, developer, endpoint))).toMatchObject({ code: "rate_limited" });
    const history = await t.app.db
      .select()
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.partnerId, partner.id))
      .orderBy(schema.auditEvents.seq);
    expect(history.map((h) => [h.action, h.detail])).toEqual([
      ["webhook_endpoint.created", { mode: "test" }],
      ["webhook_secret.rotated", { mode: "test", overlap: "1h" }],
      ["webhook_secret.expired", { mode: "test" }],
    ]);
    expect(() => parseBody(RotateSecretInput, { overlap: "2h", end_open_overlap: false })).toThrow(
      expect.objectContaining({
        errors: [{ pointer: "/overlap", detail: "Choose how long the current secret keeps signing." }],
      }),
    );
  });
});

describe("changes only the portal makes (revoke, rotate, test event, replay, team, operators')", () => {
  it("are counted first: past the budget each is refused with the reason, and not made", async () => {
    const { partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    let made = 0;
    const change = spent(account(scope), async () => ++made);
    for (let i = 1; i <= 3; i++) expect(await unlessRefused(change)).toEqual({ done: i });
    expect(await unlessRefused(change)).toEqual({
      refused: expect.stringMatching(/^At most 3 write requests per 60 s; retry after \d+ s\.$/),
    });
    expect(made).toBe(3);
    // Another error is the change's own, not a refusal.
    const other = { partnerId: (await newPartnerKey(t.app)).partner.id, mode: "test" as const };
    const failing = unlessRefused(
      spent(account(other), async () => {
        throw new Error("the change failed");
      }),
    );
    await expect(failing).rejects.toThrow("the change failed");
  });

  it("an operator's budget is the operator's own", async () => {
    const operator = budgetOn(t.app.rateLimiter, operatorBucket("0b0c2d4e-8f00-4a4a-9b9b-0000000000aa"));
    const another = budgetOn(t.app.rateLimiter, operatorBucket("0b0c2d4e-8f00-4a4a-9b9b-0000000000bb"));
    for (let i = 0; i < 3; i++) await operator();
    expect(await unlessRefused(operator)).toMatchObject({ refused: expect.any(String) });
    expect(await unlessRefused(another)).toEqual({ done: undefined });
  });
});
