// POST /webhook-endpoints with an Idempotency-Key: the same key and body within 24 h answer as the
// first request did (201, the endpoint and its secret) and create nothing; another body is a 422
// naming the header, as is a replay once the endpoint's secret was rotated or the endpoint deleted;
// without a key, two requests make two endpoints (the key is the client's say).
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { schema } from "@/lib/db";
import { deleteEndpoint, rotateSecret } from "@/lib/webhooks/endpoints";
import { newPartnerKey, post, problemOf, useTestApp, type TestApp } from "../support/app";
import { countOf } from "../support/database";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t } = ctx));

const { webhookEndpoints } = schema;
const endpointsOf = (partnerId: string) =>
  countOf(t.app.db, sql`select 1 from ${webhookEndpoints} where ${webhookEndpoints.partnerId} = ${partnerId}`);
const create = (body: object, headers: Record<string, string>) =>
  t.api.createWebhookEndpoint(post("/webhook-endpoints", body, headers));

describe("POST /webhook-endpoints with an Idempotency-Key", () => {
  it("the same key and body within 24 h answer the first response again (201, the endpoint, its secret) and create nothing", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key, "Idempotency-Key": "hooks-1" };
    const body = { url: "https://hooks.example.com/finca", description: "prod" };
    const first = await create(body, headers);
    expect(first.status).toBe(201);
    const created = await first.json();
    // The same request, its members spelt in another order.
    const again = await create({ description: "prod", url: "https://hooks.example.com/finca" }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get("location")).toBe(`/api/v1/partner-api/webhook-endpoints/${created.id}`);
    expect(await again.json()).toEqual(created);
    expect(await endpointsOf(partner.id)).toBe(1);
  });

  it("the same key with another body is a 422 naming the header, and creates nothing", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key, "Idempotency-Key": "hooks-2" };
    expect((await create({ url: "https://hooks.example.com/a" }, headers)).status).toBe(201);
    const other = await create({ url: "https://hooks.example.com/b" }, headers);
    expect(other.status).toBe(422);
    expect((await problemOf(other)).errors).toEqual([
      { header: "Idempotency-Key", detail: expect.stringMatching(/another body/) },
    ]);
    expect(await endpointsOf(partner.id)).toBe(1);
  });

  it("a key is the partner's and the mode's own; without a key each request creates; an old key is free again", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const other = await newPartnerKey(t.app);
    const body = { url: "https://hooks.example.com/same" };
    expect((await create(body, { "X-API-Key": key, "Idempotency-Key": "shared" })).status).toBe(201);
    expect((await create(body, { "X-API-Key": other.key, "Idempotency-Key": "shared" })).status).toBe(201);
    expect((await create(body, { "X-API-Key": key })).status).toBe(201);
    expect((await create(body, { "X-API-Key": key })).status).toBe(201);
    expect(await endpointsOf(partner.id)).toBe(3);
    // 25 hours later the key creates again (and the old endpoint no longer holds it).
    await t.app.db
      .update(webhookEndpoints)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(webhookEndpoints.partnerId, partner.id));
    expect((await create(body, { "X-API-Key": key, "Idempotency-Key": "shared" })).status).toBe(201);
    expect(await endpointsOf(partner.id)).toBe(4);
  });

  it("a replay once its endpoint's secret was rotated or it was deleted is a 422: no other secret", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    for (const [name, change] of [
      ["had its secret rotated", (id: string) => rotateSecret(t.app.db, scope, id, { overlap: "now" })],
      ["was deleted", (id: string) => deleteEndpoint(t.app.db, scope, id)],
    ] as const) {
      const headers = { "X-API-Key": key, "Idempotency-Key": `changed-${name.length}` };
      const body = { url: "https://hooks.example.com/changed" };
      const first = await create(body, headers);
      expect(first.status).toBe(201);
      const created = await first.json();
      await change(created.id);
      const again = await create(body, headers);
      expect(again.status, name).toBe(422);
      const problem = await problemOf(again);
      expect(problem.errors).toEqual([{ header: "Idempotency-Key", detail: expect.stringContaining(name) }]);
      expect(JSON.stringify(problem)).not.toContain("whsec_");
    }
    expect(await endpointsOf(partner.id)).toBe(2);
  });

  it("a malformed key is a 422 naming the header", async () => {
    const { key } = await newPartnerKey(t.app);
    const res = await create({ url: "https://hooks.example.com/x" }, { "X-API-Key": key, "Idempotency-Key": "a b" });
    expect(res.status).toBe(422);
    expect((await problemOf(res)).errors).toEqual([{ header: "Idempotency-Key", detail: expect.any(String) }]);
  });
});
