// The portal's and admin console's read models against the migrated schema: their hand-written
// SQL (correlated subqueries, series, the rate-limit windows) must name real tables and columns
// and count what was written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { listPartners } from "@/lib/partners";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { recordEvent } from "@/lib/webhooks/events";
import { createTestApp, newPartnerKey, post, type TestApp } from "@/test/support/app";
import { fakeSources } from "@/test/support/fake-sources";
import { adminCounts, allKeys, deliveries, failedDeliveries, overview, rateLimitUsage, troubledEndpoints } from "./queries";

let t: TestApp;
let scope: { partnerId: string; mode: "test" };
let partnerName: string;
let visible: string;
let endpointId: string;

beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
  const { partner, key, apiKey } = await newPartnerKey(t.app);
  scope = { partnerId: partner.id, mode: "test" };
  partnerName = partner.name;
  visible = apiKey.visibleStart;
  for (const reference of ["2749704YJ0624N0001DI", "9398516VK3799G"]) {
    expect((await t.api.createProperty(post("/properties", { cadastral_reference: reference }, { "X-API-Key": key }))).status).toBe(201);
  }
  const { endpoint } = await createEndpoint(t.app.db, scope, { url: "https://hooks.example.com/finca" }, { allowPrivate: false, maxEndpoints: 20 });
  endpointId = endpoint.id;
  await t.app.db.transaction((tx) => recordEvent(tx, t.app.queue, { ...scope, type: "webhook.test", propertyId: null, payload: {} }));
});
afterAll(() => t.close());

describe("partner read models", () => {
  it("overview counts properties, sources, deliveries and today's activity of the scope", async () => {
    const o = await overview(t.app.db, scope);
    expect(o.byStatus).toEqual([{ status: "enriched", n: 2 }]);
    expect(o.bySource.filter((s) => s.status === "completed").map((s) => s.n)).toEqual([2, 2, 2]);
    expect(o.deliveries).toEqual([{ status: "pending", n: 1 }]);
    expect(o.timing.finished).toBe(2);
    expect(o.daily).toHaveLength(14);
    expect(o.daily.at(-1)).toMatchObject({ registered: 2, delivered: 0, failed: 0 });
    // Another partner's scope sees none of it.
    const other = await newPartnerKey(t.app);
    expect((await overview(t.app.db, { partnerId: other.partner.id, mode: "test" })).daily.at(-1)).toMatchObject({ registered: 0 });
  });

  it("deliveries of an endpoint come with their event type", async () => {
    const rows = await deliveries(t.app.db, { endpointId });
    expect(rows.map((r) => [r.eventType, r.url, r.attempts.length])).toEqual([["webhook.test", "https://hooks.example.com/finca", 0]]);
  });
});

describe("admin read models", () => {
  it("headline counts, partners with their counts, and keys by their visible start", async () => {
    const counts = await adminCounts(t.app.db);
    expect(counts).toMatchObject({ enriching: 0, failed_deliveries: 0, troubled_endpoints: 0 });
    expect(counts.partners).toBeGreaterThanOrEqual(1);
    const partner = (await listPartners(t.app.db)).find((p) => p.id === scope.partnerId);
    expect(partner).toMatchObject({ users: 0, activeKeys: 1, properties: 2 });
    expect((await allKeys(t.app.db, visible)).map((k) => k.partner)).toEqual([partnerName]);
  });

  it("failed deliveries and failing endpoints need attention", async () => {
    const { webhookDeliveries, webhookEndpoints } = schema;
    await t.app.db.update(webhookDeliveries).set({ status: "failed", attempts: 8 }).where(eq(webhookDeliveries.endpointId, endpointId));
    await t.app.db.update(webhookEndpoints).set({ failingSince: new Date() }).where(eq(webhookEndpoints.id, endpointId));
    expect((await failedDeliveries(t.app.db)).map((d) => d.partner)).toEqual([partnerName]);
    expect((await troubledEndpoints(t.app.db)).map((e) => e.endpoint.id)).toEqual([endpointId]);
    expect(await adminCounts(t.app.db)).toMatchObject({ failed_deliveries: 1, troubled_endpoints: 1 });
  });

  it("rate-limit usage names the partner and mode of each window", async () => {
    const usage = await rateLimitUsage(t.app.db, 60);
    expect(usage.find((u) => u.partner === partnerName)).toMatchObject({ mode: "test", used: 2 });
  });
});
