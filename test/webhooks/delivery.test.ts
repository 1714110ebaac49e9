import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { schema } from "@/lib/db";
import { createEndpoint, rotateSecret } from "@/lib/webhooks/endpoints";
import { recordEvent } from "@/lib/webhooks/events";
import { deliverOnce } from "@/lib/webhooks/deliver";
import { replayDelivery, replayFailedSince, sendTestEvent } from "@/lib/webhooks/replay";
import { createTestApp, newPartnerKey, type TestApp } from "../support/app";
import { countOf } from "../support/database";
import { fakeSources } from "../support/fake-sources";
import { startReceiver, type Receiver } from "../support/receiver";

let t: TestApp;
let receiver: Receiver;
let partnerId: string;
beforeAll(async () => {
  t = await createTestApp({
    sources: fakeSources(),
    env: { FINCA_WEBHOOKS_ALLOW_PRIVATE: "1", WEBHOOK_RETRY_SCHEDULE_TEST: "1,1,1", WEBHOOK_TIMEOUT_MS: "300" },
  });
  receiver = await startReceiver();
  ({ partner: { id: partnerId } } = await newPartnerKey(t.app));
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.script();
});

const scope = () => ({ partnerId, mode: "test" as const });
const { webhookDeliveries, webhookAttempts, webhookEndpoints } = schema;

async function newEndpoint(url = receiver.url) {
  return createEndpoint(t.app.db, scope(), { url, description: "test" }, true);
}

async function emit(payload: Record<string, unknown> = { property_id: "p1", status: "enriched" }) {
  const event = await t.app.db.transaction((tx) => recordEvent(tx, t.app.queue, { ...scope(), type: "property.enriched", propertyId: null, payload }));
  const deliveries = await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event.id));
  return { event, deliveries };
}

/** Runs the delivery's pending attempt the way its queued job would. */
async function attemptNow(deliveryId: string, trigger: "scheduled" | "manual_replay" = "scheduled") {
  const [d] = await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
  return deliverOnce(t.app, { deliveryId, attempt: d!.attempts, trigger });
}

const attemptsOf = (deliveryId: string) => t.app.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(webhookAttempts.id);

describe("webhook delivery against a real receiver", () => {
  it("signs per Standard Webhooks; the reference verifier accepts the raw body", async () => {
    const { secret } = await newEndpoint();
    const { deliveries, event } = await emit();
    expect(await attemptNow(deliveries[0]!.id)).toBe("succeeded");
    const [hit] = receiver.received;
    const payload = new Webhook(secret).verify(hit!.body, hit!.headers as Record<string, string>) as Record<string, unknown>;
    expect(payload).toEqual({ type: "property.enriched", timestamp: event.createdAt.toISOString(), data: { property_id: "p1", status: "enriched" } });
    expect(hit!.headers["webhook-id"]).toBe(`msg_${event.id.replaceAll("-", "")}`);
    expect(Number(hit!.headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -1);
  });

  it("retries after 500s and a timeout, then succeeds; every attempt is logged with the same webhook-id", async () => {
    await newEndpoint();
    receiver.script({ status: 500, body: "x".repeat(5000) }, { hangMs: 1000 }, { status: 503, headers: { "Retry-After": "0" } });
    const { deliveries } = await emit();
    const id = deliveries[0]!.id;
    expect(await attemptNow(id)).toBe("retry");
    expect(await attemptNow(id)).toBe("retry");
    expect(await attemptNow(id)).toBe("retry");
    expect(await attemptNow(id)).toBe("succeeded");
    const log = await attemptsOf(id);
    expect(log.map((a) => [a.statusCode, a.errorClass])).toEqual([[500, "http_status"], [null, "timeout"], [503, "http_status"], [200, null]]);
    expect(log[0]!.responseBody).toHaveLength(1024);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    // Each retry was queued as a delayed job.
    expect(await countOf(t.app.db, sql`select 1 from pgboss.job where name = 'deliver-webhook' and data->>'deliveryId' = ${id}`)).toBe(4);
  });

  it("gives up after the schedule: delivery failed", async () => {
    await newEndpoint();
    receiver.script({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const { deliveries } = await emit();
    for (const expected of ["retry", "retry", "retry", "failed"]) expect(await attemptNow(deliveries[0]!.id)).toBe(expected);
    const [d] = await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveries[0]!.id));
    expect(d).toMatchObject({ status: "failed", attempts: 4, lastStatusCode: 500 });
  });

  it("410 disables the endpoint; 3xx is a failure and is not followed", async () => {
    const { endpoint } = await newEndpoint();
    receiver.script({ status: 302, headers: { Location: "http://169.254.169.254/" } }, { status: 410 });
    const { deliveries } = await emit();
    const id = deliveries.find((d) => d.endpointId === endpoint.id)!.id;
    expect(await attemptNow(id)).toBe("retry");
    expect(receiver.received).toHaveLength(1);
    expect(await attemptNow(id)).toBe("failed");
    const [e] = await t.app.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(e).toMatchObject({ enabled: false, disabledReason: "gone_410" });
  });

  it("replay keeps the webhook-id and logs a manual attempt; replay-all covers failed deliveries", async () => {
    const { endpoint } = await newEndpoint();
    receiver.script({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const { deliveries } = await emit();
    const id = deliveries.find((d) => d.endpointId === endpoint.id)!.id;
    for (let i = 0; i < 4; i++) await attemptNow(id);
    expect(await replayDelivery(t.app, id, partnerId)).toBe(true);
    expect(await replayDelivery(t.app, id, "00000000-0000-4000-8000-000000000000")).toBe(false); // another partner
    expect(await attemptNow(id, "manual_replay")).toBe("succeeded");
    const ids = receiver.received.map((r) => r.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(1);
    expect((await attemptsOf(id)).at(-1)).toMatchObject({ trigger: "manual_replay", statusCode: 200 });

    receiver.script({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const second = (await emit()).deliveries.find((d) => d.endpointId === endpoint.id)!.id;
    for (let i = 0; i < 4; i++) await attemptNow(second);
    expect(await replayFailedSince(t.app, endpoint.id, new Date(Date.now() - 60_000), partnerId)).toBe(1);
  });

  it("signs with both secrets for 24 h after a rotation", async () => {
    const { endpoint, secret: oldSecret } = await newEndpoint();
    const newSecret = (await rotateSecret(t.app.db, scope(), endpoint.id))!;
    const id = (await emit()).deliveries.find((d) => d.endpointId === endpoint.id)!.id;
    await attemptNow(id);
    const hit = receiver.received.at(-1)!;
    for (const s of [oldSecret, newSecret]) expect(() => new Webhook(s).verify(hit.body, hit.headers as Record<string, string>)).not.toThrow();
  });

  it("a test event reaches only the chosen endpoint, with trigger test", async () => {
    const { endpoint } = await newEndpoint();
    const event = await sendTestEvent(t.app, endpoint);
    const [d] = await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event.id));
    expect(d!.endpointId).toBe(endpoint.id);
    expect(await deliverOnce(t.app, { deliveryId: d!.id, attempt: 0, trigger: "test" })).toBe("succeeded");
    expect(JSON.parse(receiver.received.at(-1)!.body).type).toBe("webhook.test");
    expect((await attemptsOf(d!.id))[0]!.trigger).toBe("test");
  });

  it("refuses to connect to a private address unless allowed (SSRF), and logs it", async () => {
    const strict = await createTestApp({ testDb: t.testDb, sources: fakeSources(), env: { WEBHOOK_RETRY_SCHEDULE_TEST: "1" } });
    await t.app.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.partnerId, partnerId));
    await newEndpoint("http://127.0.0.1:9/hooks");
    const { deliveries } = await emit();
    const [d] = deliveries;
    expect(await deliverOnce(strict.app, { deliveryId: d!.id, attempt: 0, trigger: "scheduled" })).toBe("retry");
    expect((await attemptsOf(d!.id))[0]).toMatchObject({ errorClass: "ssrf_blocked", statusCode: null });
    await strict.app.queue.stop({ graceful: false, wait: true, timeout: 2000 });
  });

  it("a stale job (attempt already logged) sends nothing", async () => {
    await t.app.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.partnerId, partnerId));
    await newEndpoint();
    const { deliveries } = await emit();
    expect(await attemptNow(deliveries[0]!.id)).toBe("succeeded");
    expect(await deliverOnce(t.app, { deliveryId: deliveries[0]!.id, attempt: 0, trigger: "scheduled" })).toBe("skipped");
    expect(receiver.received).toHaveLength(1);
  });
});
