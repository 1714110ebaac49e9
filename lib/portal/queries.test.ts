// The portal's and admin console's read models against the migrated schema: their hand-written
// SQL (correlated subqueries, series, the rate-limit windows) must name real tables and columns
// and count what was written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aProperty } from "@/test/support/payloads";
import { eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { listPartners } from "@/lib/partners";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { recordEvent } from "@/lib/webhooks/events";
import { createTestApp, newPartnerKey, post, type TestApp } from "@/test/support/app";
import { fakeSources } from "@/test/support/fake-sources";
import {
  adminCounts,
  allKeys,
  deliveries,
  endpointStats,
  failedDeliveries,
  overview,
  rateLimitUsage,
  troubledEndpoints,
} from "./queries";

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
    expect(
      (await t.api.createProperty(post("/properties", { cadastral_reference: reference }, { "X-API-Key": key })))
        .status,
    ).toBe(201);
  }
  const { endpoint } = await createEndpoint(
    t.app.db,
    scope,
    { url: "https://hooks.example.com/finca" },
    { allowPrivate: false, maxEndpoints: 20 },
  );
  endpointId = endpoint.id;
  await t.app.db.transaction((tx) =>
    recordEvent(tx, t.app.queue, { ...scope, type: "webhook.test", propertyId: null, payload: {} }),
  );
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
    expect((await overview(t.app.db, { partnerId: other.partner.id, mode: "test" })).daily.at(-1)).toMatchObject({
      registered: 0,
    });
  });

  it("deliveries of an endpoint come with their event type, webhook-id and the exact body sent", async () => {
    const { data } = await deliveries(t.app.db, { endpointId });
    expect(data.map((r) => [r.eventType, r.url, r.attempts.length])).toEqual([
      ["webhook.test", "https://hooks.example.com/finca", 0],
    ]);
    expect(data[0]!.delivery.messageId).toMatch(/^msg_/);
    expect(JSON.parse(data[0]!.payload)).toEqual({
      type: "webhook.test",
      timestamp: data[0]!.event.createdAt.toISOString(),
      data: {},
    });
  });

  it("deliveries are filtered by status (retrying apart), event type, date, webhook-id or property id, scoped, in stable pages", async () => {
    const { webhookDeliveries } = schema;
    const other = await newPartnerKey(t.app);
    const otherScope = { partnerId: other.partner.id, mode: "test" as const };
    const { endpoint } = await createEndpoint(
      t.app.db,
      otherScope,
      { url: "https://hooks.example.com/other" },
      { allowPrivate: false, maxEndpoints: 20 },
    );
    const propertyId =
      (
        await t.app.db
          .select({ id: schema.properties.id })
          .from(schema.properties)
          .where(eq(schema.properties.partnerId, other.partner.id))
      )[0]?.id ?? null;
    for (let i = 0; i < 5; i++) {
      await t.app.db.transaction((tx) =>
        recordEvent(tx, t.app.queue, {
          ...otherScope,
          propertyId,
          ...(i < 3
            ? { type: "webhook.test", payload: { n: i } }
            : { type: "property.enriched", payload: aProperty() }),
        }),
      );
    }
    const all = (await deliveries(t.app.db, { scope: otherScope, limit: 10 })).data;
    expect(all).toHaveLength(5);
    expect(all.every((d) => d.url === endpoint.url)).toBe(true);
    // Scoped: the first partner's delivery is not among them, nor in another mode.
    expect((await deliveries(t.app.db, { scope: { ...otherScope, mode: "live" } })).data).toEqual([]);
    await t.app.db.update(webhookDeliveries).set({ attempts: 2 }).where(eq(webhookDeliveries.id, all[0]!.delivery.id));
    await t.app.db
      .update(webhookDeliveries)
      .set({ status: "failed", attempts: 8 })
      .where(eq(webhookDeliveries.id, all[1]!.delivery.id));
    const ids = async (filter: Omit<Parameters<typeof deliveries>[1], "scope">) =>
      (await deliveries(t.app.db, { scope: otherScope, ...filter })).data.map((d) => d.delivery.id);
    expect(await ids({ status: "retrying" })).toEqual([all[0]!.delivery.id]);
    // The overview and the endpoint's figures count a delivery being retried apart, as failing so far.
    const byState = (rows: { status: string; n: number }[]) => Object.fromEntries(rows.map((r) => [r.status, r.n]));
    expect(byState((await overview(t.app.db, otherScope)).deliveries)).toEqual({ failed: 1, pending: 3, retrying: 1 });
    expect(byState(await endpointStats(t.app.db, [endpoint.id]))).toEqual({ failed: 1, pending: 3, retrying: 1 });
    expect(await ids({ status: "failed" })).toEqual([all[1]!.delivery.id]);
    expect(await ids({ status: "pending" })).toHaveLength(3);
    expect(await ids({ eventType: "property.enriched" })).toHaveLength(2);
    expect(await ids({ q: all[2]!.delivery.messageId })).toEqual([all[2]!.delivery.id]);
    expect(await ids({ q: ` ${all[2]!.delivery.messageId} ` })).toEqual([all[2]!.delivery.id]);
    expect(await ids({ from: new Date(Date.now() + 60_000) })).toEqual([]);
    expect(await ids({ to: new Date(Date.now() + 60_000) })).toHaveLength(5);
    if (propertyId) expect(await ids({ q: propertyId })).toHaveLength(5);
    const pages: string[] = [];
    let before: Parameters<typeof deliveries>[1]["before"];
    do {
      const page = await deliveries(t.app.db, { scope: otherScope, limit: 2, before });
      pages.push(...page.data.map((d) => d.delivery.id));
      before = page.next ?? undefined;
    } while (before);
    expect(pages).toEqual(all.map((d) => d.delivery.id));
    // The admin tests below count the whole database: this partner goes with everything it has.
    await t.app.db.delete(schema.partners).where(eq(schema.partners.id, other.partner.id));
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
    await t.app.db
      .update(webhookDeliveries)
      .set({ status: "failed", attempts: 8 })
      .where(eq(webhookDeliveries.endpointId, endpointId));
    await t.app.db
      .update(webhookEndpoints)
      .set({ failingSince: new Date() })
      .where(eq(webhookEndpoints.id, endpointId));
    expect((await failedDeliveries(t.app.db)).map((d) => d.partner)).toEqual([partnerName]);
    expect((await troubledEndpoints(t.app.db)).map((e) => e.endpoint.id)).toEqual([endpointId]);
    expect(await adminCounts(t.app.db)).toMatchObject({ failed_deliveries: 1, troubled_endpoints: 1 });
  });

  it("rate-limit usage names the partner and mode of each window", async () => {
    const usage = await rateLimitUsage(t.app.db, 60);
    expect(usage.find((u) => u.partner === partnerName)).toMatchObject({ mode: "test", used: 2 });
  });
});
