import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { aBatch, aProperty } from "@/test/support/payloads";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { rowsOf, schema, type Database } from "@/lib/db";
import { loadConfig, type Config } from "@/lib/config";
import { createLogger } from "@/lib/observability/logger";
import { startQueue, type Queue } from "@/lib/queue";
import type { Mode } from "@/lib/domain";
import { startReceiver, type Receiver } from "@/test/support/receiver";
import { DomainError, type Property, type Scope } from "@/lib/domain";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  expirePreviousSecret,
  rotateSecret,
  setEnabled,
} from "./endpoints";
import { recordEvent, type DeliverJob } from "./events";
import { deliverMany, deliverySchedule, nextDelaySeconds, type DeliveryDeps } from "./deliver";
import { replayDelivery, replayFailedSince, sendTestEvent } from "./replay";
import type { Resolver } from "@/lib/http/ssrf";
import { deliverySlots } from "./fair-share";
import { decideLiveAccess } from "@/lib/partners/live";
import { createTestDatabase, type TestDatabase } from "@/test/support/database";

const { partners, webhookDeliveries, webhookAttempts, webhookEndpoints, events } = schema;

let testDb: TestDatabase;
let database: Database;
let queue: Queue;
let config: Config;
let deps: DeliveryDeps;
let receiver: Receiver;
beforeAll(async () => {
  config = loadConfig({
    FINCA_WEBHOOKS_ALLOW_PRIVATE: "1",
    WEBHOOK_RETRY_SCHEDULE_TEST: "1,1,1",
    // Long enough for a loopback answer on a loaded machine (a first connection builds its parser), short for the hang.
    WEBHOOK_TIMEOUT_MS: "3000",
  });
  testDb = await createTestDatabase();
  database = testDb.database;
  queue = await startQueue(database, config, createLogger({ level: "warn" }));
  deps = { db: database.db, queue, config };
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await queue.stop({ graceful: false, wait: true, timeout: 2000 });
  await testDb.drop();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.script();
});

let partnerCount = 0;
async function newScope(mode: Mode = "test"): Promise<Scope> {
  const [partner] = await database.db
    .insert(partners)
    .values({ name: `Partner ${++partnerCount}` })
    .returning();
  return { partnerId: partner!.id, mode };
}

const grantLiveAccess = (partnerId: string) => decideLiveAccess(database.db, partnerId, true, { waiting: false });

async function newEndpoint(scope?: Scope, url = receiver.url) {
  const s = scope ?? (await newScope());
  return {
    scope: s,
    ...(await createEndpoint(database.db, s, { url, description: "test" }, { allowPrivate: true, maxEndpoints: 20 })),
  };
}

const P1 = "0b0c2d4e-8f00-4a4a-9b9b-000000000001";
async function emit(scope: Scope, payload: Property = aProperty({ property_id: P1 })) {
  const event = await database.db.transaction((tx) =>
    recordEvent(tx, queue, { ...scope, type: "property.enriched", propertyId: null, payload }),
  );
  const deliveries = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event.id));
  return { event, deliveries };
}

type QueuedJob = { data: DeliverJob; delaySeconds: number };
/** The delivery's jobs as pg-boss holds them, oldest first. */
async function jobsOf(deliveryId: string): Promise<QueuedJob[]> {
  const rows = rowsOf<{ data: DeliverJob; delay: number }>(
    await database.db.execute(
      sql`select data, extract(epoch from start_after - created_on)::float as delay from pgboss.job
          where name = 'deliver-webhook' and data->>'deliveryId' = ${deliveryId} order by created_on, id`,
    ),
  );
  return rows.map((r) => ({ data: r.data, delaySeconds: r.delay }));
}

/** Runs the delivery's newest queued job, as the worker would. */
async function runNext(deliveryId: string, d: DeliveryDeps = deps) {
  const job = (await jobsOf(deliveryId)).at(-1)!;
  return (await deliverMany(d, [job.data]))[0];
}

const deliveryOf = async (id: string) =>
  (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
const endpointOf = async (id: string) =>
  (await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;
const attemptsOf = (deliveryId: string) =>
  database.db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, deliveryId))
    .orderBy(webhookAttempts.id);
const headersOf = (i: number) => receiver.received[i]!.headers as Record<string, string>;

describe("recording an event", () => {
  it("creates the event, one delivery and one job per enabled endpoint, atomically with the caller's transaction", async () => {
    const { scope, endpoint } = await newEndpoint();
    const other = await newEndpoint(scope);
    await setEnabled(database.db, other.endpoint.id, false, "disabled_by_partner", scope);
    const { event, deliveries } = await emit(scope);
    expect(deliveries.map((d) => d.endpointId)).toEqual([endpoint.id]);
    expect(deliveries[0]!.messageId).toBe(`msg_${event.id.replaceAll("-", "")}`);
    expect((await jobsOf(deliveries[0]!.id)).map((j) => j.data)).toEqual([
      { deliveryId: deliveries[0]!.id, messageId: deliveries[0]!.messageId, attempt: 0, step: 0, trigger: "scheduled" },
    ]);

    const rolledBack = database.db.transaction(async (tx) => {
      await recordEvent(tx, queue, { ...scope, type: "property.enriched", propertyId: null, payload: aProperty() });
      throw new Error("caller fails after recording");
    });
    await expect(rolledBack).rejects.toThrow("caller fails");
    expect(await database.db.select().from(events).where(eq(events.partnerId, scope.partnerId))).toHaveLength(1);
    const jobs = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select count(*)::int as n from pgboss.job where data->>'deliveryId' not in (select id::text from webhook_deliveries)`,
      ),
    );
    expect(jobs[0]!.n).toBe(0);
  });

  it("reaches only the endpoints subscribed to its type; a test event reaches any endpoint", async () => {
    const scope = await newScope();
    const all = await createEndpoint(
      database.db,
      scope,
      { url: receiver.url },
      { allowPrivate: true, maxEndpoints: 20 },
    );
    const batches = await createEndpoint(
      database.db,
      scope,
      { url: receiver.url, event_types: ["batch.completed"] },
      { allowPrivate: true, maxEndpoints: 20 },
    );
    expect((await emit(scope)).deliveries.map((d) => d.endpointId)).toEqual([all.endpoint.id]);
    const completed = await database.db.transaction((tx) =>
      recordEvent(tx, queue, { ...scope, type: "batch.completed", propertyId: null, payload: aBatch() }),
    );
    const deliveries = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, completed.id));
    expect(deliveries.map((d) => d.endpointId).sort()).toEqual([all.endpoint.id, batches.endpoint.id].sort());
    const test = await sendTestEvent(deps, batches.endpoint);
    expect(
      (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, test.id))).map(
        (d) => d.endpointId,
      ),
    ).toEqual([batches.endpoint.id]);
  });
});

describe("delivery against a real receiver", () => {
  it("signs per Standard Webhooks: the reference verifier accepts the raw body", async () => {
    const { scope, secret } = await newEndpoint();
    const property = aProperty({ property_id: P1 });
    const { event, deliveries } = await emit(scope, property);
    expect(await runNext(deliveries[0]!.id)).toBe("succeeded");
    const hit = receiver.received[0]!;
    expect(new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>)).toEqual({
      type: "property.enriched",
      timestamp: event.createdAt.toISOString(),
      data: property,
    });
    expect(() =>
      new Webhook(secret).verify(hit.body.replace(P1, P1.replace(/1$/, "2")), hit.headers as Record<string, string>),
    ).toThrow();
    expect(hit.headers["webhook-id"]).toBe(deliveries[0]!.messageId);
    expect(Math.abs(Number(hit.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    expect(await deliveryOf(deliveries[0]!.id)).toMatchObject({
      status: "succeeded",
      attempts: 1,
      lastStatusCode: 200,
      nextAttemptAt: null,
    });
    expect((await deliveryOf(deliveries[0]!.id)).deliveredAt).not.toBeNull();
  });

  it("retries after 500s and a timeout on the schedule, then succeeds; the webhook-id never changes", async () => {
    const { scope, endpoint } = await newEndpoint();
    receiver.script({ status: 500, body: "x".repeat(5000) }, { hangMs: 6000 }, { status: 500 });
    const id = (await emit(scope)).deliveries[0]!.id;
    expect(await runNext(id)).toBe("retry");
    const failingSince = (await endpointOf(endpoint.id)).failingSince;
    expect(failingSince).not.toBeNull();
    expect(await runNext(id)).toBe("retry");
    expect(await runNext(id)).toBe("retry");
    expect((await endpointOf(endpoint.id)).failingSince).toEqual(failingSince); // the streak's start is kept
    expect(await runNext(id)).toBe("succeeded");
    expect((await endpointOf(endpoint.id)).failingSince).toBeNull();

    const log = await attemptsOf(id);
    expect(log.map((a) => [a.statusCode, a.errorClass, a.trigger])).toEqual([
      [500, "http_status", "scheduled"],
      [null, "timeout", "scheduled"],
      [500, "http_status", "scheduled"],
      [200, null, "scheduled"],
    ]);
    expect(log[0]!.responseBody).toBe("x".repeat(1024));
    expect(log[1]!.durationMs).toBeGreaterThanOrEqual(2990);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    // Each attempt keeps the signature it was sent with (the timeout's never reached the receiver).
    expect(log.map((a) => a.signature)).toEqual([
      receiver.received[0]!.headers["webhook-signature"],
      expect.stringMatching(/^v1,/),
      receiver.received[2]!.headers["webhook-signature"],
      receiver.received[3]!.headers["webhook-signature"],
    ]);
    // Each retry is its own delayed job, queued with the schedule's delay.
    const jobs = await jobsOf(id);
    expect(jobs.map((j) => [j.data.attempt, j.data.step])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    for (const j of jobs.slice(1)) expect(j.delaySeconds).toBeCloseTo(1, 0);
  });

  it("a batch of jobs: one read, the successes written together; a stale, repeated or malformed job sends nothing", async () => {
    const { scope } = await newEndpoint();
    const first = (await emit(scope)).deliveries[0]!;
    const second = (await emit(scope)).deliveries[0]!;
    const stale = (await emit(scope)).deliveries[0]!;
    const job = (id: string, attempt = 0): DeliverJob => ({ deliveryId: id, attempt, step: 0, trigger: "scheduled" });
    const outcomes = await deliverMany(deps, [
      job(first.id),
      job(second.id),
      job(first.id),
      job(stale.id, 3),
      job("not-a-uuid"),
    ]);
    expect(outcomes).toEqual(["succeeded", "succeeded", "skipped", "skipped", "skipped"]);
    expect(receiver.received).toHaveLength(2);
    for (const id of [first.id, second.id]) {
      expect(await deliveryOf(id)).toMatchObject({ status: "succeeded", attempts: 1, lastStatusCode: 200 });
      expect((await attemptsOf(id)).map((a) => a.statusCode)).toEqual([200]);
    }
    expect(await deliveryOf(stale.id)).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("a job whose attempt was already logged sends nothing", async () => {
    const { scope } = await newEndpoint();
    const id = (await emit(scope)).deliveries[0]!.id;
    const [first] = await jobsOf(id);
    expect(await deliverMany(deps, [first!.data])).toEqual(["succeeded"]);
    expect(await deliverMany(deps, [first!.data])).toEqual(["skipped"]);
    expect(receiver.received).toHaveLength(1);
    expect(await attemptsOf(id)).toHaveLength(1);
  });

  it("gives up after the last scheduled delay", async () => {
    const { scope } = await newEndpoint();
    receiver.script({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const id = (await emit(scope)).deliveries[0]!.id;
    for (const expected of ["retry", "retry", "retry", "failed"]) expect(await runNext(id)).toBe(expected);
    expect(await deliveryOf(id)).toMatchObject({
      status: "failed",
      attempts: 4,
      lastStatusCode: 500,
      nextAttemptAt: null,
    });
    expect(await jobsOf(id)).toHaveLength(4);
  });

  it("410 disables the endpoint; its other pending deliveries are then not sent", async () => {
    const { scope, endpoint } = await newEndpoint();
    receiver.script({ status: 410 });
    const first = (await emit(scope)).deliveries[0]!.id;
    const second = (await emit(scope)).deliveries[0]!.id;
    expect(await runNext(first)).toBe("failed");
    expect(await endpointOf(endpoint.id)).toMatchObject({ enabled: false, disabledReason: "gone_410" });
    expect(await runNext(second)).toBe("skipped");
    expect(await deliveryOf(second)).toMatchObject({ status: "failed", lastError: "endpoint disabled (gone_410)" });
    expect(receiver.received).toHaveLength(1);
    expect((await emit(scope)).deliveries).toHaveLength(0);
  });

  it("3xx is a failure and is not followed", async () => {
    const { scope } = await newEndpoint();
    receiver.script({ status: 301, headers: { Location: "http://169.254.169.254/latest/meta-data" } });
    const id = (await emit(scope)).deliveries[0]!.id;
    expect(await runNext(id)).toBe("retry");
    expect((await attemptsOf(id))[0]).toMatchObject({ statusCode: 301, errorClass: "http_status" });
    expect(receiver.received).toHaveLength(1);
  });

  it("honours Retry-After on 429/503 up to the next scheduled delay", async () => {
    expect(deliverySchedule(loadConfig({}), "live")).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(nextDelaySeconds([5, 300], 1, { statusCode: 429, retryAfterSeconds: 60 })).toBe(60);
    expect(nextDelaySeconds([5, 300], 1, { statusCode: 503, retryAfterSeconds: 3600 })).toBe(300);
    expect(nextDelaySeconds([5, 300], 1, { statusCode: 500, retryAfterSeconds: 60 })).toBe(300); // only 429 and 503
    expect(nextDelaySeconds([5, 300], 2, { statusCode: 429, retryAfterSeconds: 1 })).toBeNull();

    const slow = { ...deps, config: { ...config, WEBHOOK_RETRY_SCHEDULE_TEST: [60, 60] } };
    const { scope } = await newEndpoint();
    receiver.script(
      { status: 503, headers: { "Retry-After": "7" } },
      { status: 429, headers: { "Retry-After": "3600" } },
    );
    const id = (await emit(scope)).deliveries[0]!.id;
    for (const expected of [7, 60]) {
      const before = Date.now();
      expect(await runNext(id, slow)).toBe("retry");
      expect(((await deliveryOf(id)).nextAttemptAt!.getTime() - before) / 1000).toBeCloseTo(expected, 0);
      expect((await jobsOf(id)).at(-1)!.delaySeconds).toBeCloseTo(expected, 0);
    }
  });

  it("disables an endpoint that has failed continuously for 5 days; a success resets the streak", async () => {
    const { scope, endpoint } = await newEndpoint();
    receiver.script({ status: 500 }, { status: 500 }, { status: 500 });
    const id = (await emit(scope)).deliveries[0]!.id;
    expect(await runNext(id)).toBe("retry");
    const start = (await endpointOf(endpoint.id)).failingSince!;
    const at = (ms: number) => ({ ...deps, now: () => new Date(start.getTime() + ms) });
    // The default WEBHOOK_DISABLE_AFTER_DAYS.
    const fiveDays = 5 * 24 * 3600_000;
    expect(await runNext(id, at(fiveDays - 60_000))).toBe("retry");
    expect((await endpointOf(endpoint.id)).enabled).toBe(true);
    expect(await runNext(id, at(fiveDays + 1000))).toBe("failed");
    expect(await endpointOf(endpoint.id)).toMatchObject({ enabled: false, disabledReason: "failing_5_days" });

    // Re-enabling clears the streak, so the next failure starts a new one.
    await setEnabled(database.db, endpoint.id, true, null, scope);
    expect(await endpointOf(endpoint.id)).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it("a private target is refused at connect time, logged as ssrf_blocked without the address, and not retried", async () => {
    const strict = {
      ...deps,
      config: { ...config, FINCA_WEBHOOKS_ALLOW_PRIVATE: false },
      resolver: (async () => [{ address: "127.0.0.1", family: 4 }]) satisfies Resolver,
    };
    const scope = await newScope();
    const { endpoint } = await createEndpoint(
      database.db,
      scope,
      { url: `http://hooks.example:${new URL(receiver.url).port}/hooks` },
      { allowPrivate: false, maxEndpoints: 20 },
    );
    const id = (await emit(scope)).deliveries[0]!.id;
    expect(await runNext(id, strict)).toBe("failed");
    expect((await attemptsOf(id))[0]).toMatchObject({ errorClass: "ssrf_blocked", statusCode: null });
    expect((await attemptsOf(id))[0]!.error).not.toContain("127.0.0.1");
    expect(await jobsOf(id)).toHaveLength(1);
    expect(receiver.received).toHaveLength(0);
    expect(endpoint.enabled).toBe(true);

    // A live endpoint with plain http (it cannot be created; say, edited in the database) is refused too.
    const live = await newScope("live");
    await grantLiveAccess(live.partnerId);
    await database.db
      .insert(webhookEndpoints)
      .values({ ...live, url: receiver.url, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" });
    const liveId = (await emit(live)).deliveries[0]!.id;
    expect(await runNext(liveId)).toBe("failed");
    expect((await attemptsOf(liveId))[0]).toMatchObject({
      errorClass: "ssrf_blocked",
      error: "live endpoints must use https",
    });
    expect(receiver.received).toHaveLength(0);
  });

  it("one partner's deliveries beyond its share in flight take turns in its slots, within one batch", async () => {
    // Constructed settings: one slot, which no outcome moves.
    const slots = deliverySlots(1, { min: 1, max: 1, latencyTargetMs: 60_000 }, 60_000);
    const { scope } = await newEndpoint();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await emit(scope)).deliveries[0]!.id);
    const jobs = await Promise.all(ids.map(async (id) => (await jobsOf(id)).at(-1)!.data));
    expect(await deliverMany({ ...deps, slots }, jobs)).toEqual(Array(5).fill("succeeded"));
    expect(receiver.received).toHaveLength(5);
    for (const id of ids) expect(await jobsOf(id)).toHaveLength(1); // none put back on the queue
  });

  it("one partner's deliveries that find its share in flight all the wait go back on the queue without an attempt; other partners go on", async () => {
    const slots = deliverySlots(1, { min: 1, max: 1, latencyTargetMs: 60_000 }, 50);
    const fair = { ...deps, slots };
    const busy = await newEndpoint();
    const other = await newEndpoint();
    // The partner's one slot is in flight (a delivery to another of its endpoints).
    const hold = (await slots.wait(busy.scope.partnerId, "another endpoint"))!;
    const waiting = (await emit(busy.scope)).deliveries[0]!.id;
    expect(await runNext(waiting, fair)).toBe("deferred");
    expect(await attemptsOf(waiting)).toHaveLength(0);
    expect(await deliveryOf(waiting)).toMatchObject({ status: "pending", attempts: 0 });
    const [first, again] = await jobsOf(waiting);
    expect(again!.data).toEqual(first!.data);
    expect(again!.delaySeconds).toBeGreaterThan(0);
    expect(await runNext((await emit(other.scope)).deliveries[0]!.id, fair)).toBe("succeeded");
    hold();
    expect(await runNext(waiting, fair)).toBe("succeeded");
  });

  it("logs a response body with NUL bytes (PostgreSQL text cannot hold them)", async () => {
    const { scope } = await newEndpoint();
    receiver.script({ status: 500, body: "\u0000\u0001binary" });
    const id = (await emit(scope)).deliveries[0]!.id;
    expect(await runNext(id)).toBe("retry");
    expect((await attemptsOf(id))[0]!.responseBody).toBe("\uFFFD\u0001binary");
  });
});

describe("a batch of jobs", () => {
  const jobOf = async (deliveryId: string) => (await jobsOf(deliveryId)).at(-1)!.data;

  it("sends and writes the rest when one job cannot run (its delivery fails); a rerun sends none twice", async () => {
    const { scope } = await newEndpoint();
    const good = (await emit(scope)).deliveries[0]!;
    // A stored payload off the contract's schema: our bug, not the receiver's doing.
    const bad = (await emit(scope, { property_id: "x" } as unknown as Property)).deliveries[0]!;
    const jobs = [await jobOf(good.id), await jobOf(bad.id)];
    await expect(deliverMany(deps, jobs)).rejects.toThrow(/stored payload is not the contract's/);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryOf(good.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await deliveryOf(bad.id)).toMatchObject({ status: "failed", attempts: 0 });
    expect((await deliveryOf(bad.id)).lastError).toMatch(/^its payload could not be made: /);
    // pg-boss retries the batch: both jobs are found done.
    expect(await deliverMany(deps, jobs)).toEqual(["skipped", "skipped"]);
    expect(receiver.received).toHaveLength(1);
  });

  it("sends nothing more to a live endpoint once the partner's live access is revoked", async () => {
    const scope = await newScope("live");
    await grantLiveAccess(scope.partnerId);
    // Inserted as it is (a live endpoint must be https; the receiver here is http): it is never called.
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    await database.db.insert(webhookEndpoints).values({ ...scope, url: receiver.url, secret });
    const delivery = (await emit(scope)).deliveries[0]!;
    await decideLiveAccess(database.db, scope.partnerId, false, { waiting: false });
    expect(await deliverMany(deps, [await jobOf(delivery.id)])).toEqual(["skipped"]);
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryOf(delivery.id)).toMatchObject({ status: "failed", lastError: "live access revoked" });
  });

  it("does not call an endpoint deleted while its delivery waited for a slot: the delivery fails", async () => {
    const { scope, endpoint } = await newEndpoint();
    const delivery = (await emit(scope)).deliveries[0]!;
    const slots = deliverySlots(10, { min: 1, max: 10, latencyTargetMs: 5000 });
    // Another delivery to the endpoint holds its one slot.
    const held = (await slots.wait(scope.partnerId, endpoint.id))!;
    // Deleted once the delivery, its endpoint read as it was, asks for the slot.
    let asking = () => {};
    const asked = new Promise<void>((resolve) => (asking = resolve));
    const watched = { ...slots, wait: (partnerId: string, id: string) => (asking(), slots.wait(partnerId, id)) };
    const run = deliverMany({ ...deps, slots: watched }, [await jobOf(delivery.id)]);
    await asked;
    expect(await deleteEndpoint(database.db, scope, endpoint.id)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    held({ startedAt: 0, endedAt: 1, statusCode: 200 });
    expect(await run).toEqual(["skipped"]);
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryOf(delivery.id)).toMatchObject({
      status: "failed",
      lastError: "endpoint deleted",
      attempts: 0,
    });
  });
});

describe("replays and test events", () => {
  it("replay keeps the webhook-id, logs a manual attempt and starts the schedule over", async () => {
    const { scope, endpoint } = await newEndpoint();
    receiver.script({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const id = (await emit(scope)).deliveries[0]!.id;
    for (let i = 0; i < 4; i++) await runNext(id);
    expect((await deliveryOf(id)).status).toBe("failed");

    const other = { partnerId: "00000000-0000-4000-8000-000000000000", mode: scope.mode };
    expect(await replayDelivery(deps, id, other)).toBe(false); // another partner
    const otherMode = { ...scope, mode: scope.mode === "test" ? ("live" as const) : ("test" as const) };
    await grantLiveAccess(scope.partnerId);
    expect(await replayDelivery(deps, id, otherMode)).toBe(false); // the partner's other mode
    expect(await replayDelivery(deps, "not-a-uuid", scope)).toBe(false);
    expect(await replayDelivery(deps, id, scope)).toBe(true);
    expect((await jobsOf(id)).at(-1)!.data).toEqual({
      deliveryId: id,
      messageId: (await deliveryOf(id)).messageId,
      attempt: 4,
      step: 0,
      trigger: "manual_replay",
    });
    // The replay fails too, and is retried on the schedule from its start (3 more tries here).
    expect(await runNext(id)).toBe("retry");
    expect(await runNext(id)).toBe("succeeded");

    const log = await attemptsOf(id);
    expect(log.map((a) => a.trigger)).toEqual([
      "scheduled",
      "scheduled",
      "scheduled",
      "scheduled",
      "manual_replay",
      "scheduled",
    ]);
    expect(receiver.received).toHaveLength(6);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(
      new Set([(await deliveryOf(id)).messageId]),
    );
    expect(await deliveryOf(id)).toMatchObject({ status: "succeeded", attempts: 6 });
    expect((await endpointOf(endpoint.id)).failingSince).toBeNull();
  });

  it("replays every failed delivery of an endpoint since a time, and nothing of a deleted endpoint", async () => {
    const { scope, endpoint } = await newEndpoint();
    receiver.script(...Array.from({ length: 8 }, () => ({ status: 500 })));
    const ids = [(await emit(scope)).deliveries[0]!.id, (await emit(scope)).deliveries[0]!.id];
    for (const id of ids) for (let i = 0; i < 4; i++) await runNext(id);
    const succeeded = (await emit(scope)).deliveries[0]!.id;
    expect(await runNext(succeeded)).toBe("succeeded");

    expect(await replayFailedSince(deps, endpoint.id, new Date(Date.now() + 60_000), scope)).toBe(0);
    const other = { partnerId: "00000000-0000-4000-8000-000000000000", mode: scope.mode };
    expect(await replayFailedSince(deps, endpoint.id, new Date(Date.now() - 60_000), other)).toBe(0);
    // A replay-all takes the newest failures first, at most its cap; the next click takes the rest.
    expect(await replayFailedSince(deps, endpoint.id, new Date(Date.now() - 60_000), scope, 1)).toBe(1);
    expect((await deliveryOf(ids[1]!)).status).toBe("pending");
    expect((await deliveryOf(ids[0]!)).status).toBe("failed");
    expect(await replayFailedSince(deps, endpoint.id, new Date(Date.now() - 60_000), scope)).toBe(1);
    for (const id of ids) {
      expect(await runNext(id)).toBe("succeeded");
      expect((await attemptsOf(id)).at(-1)!.trigger).toBe("manual_replay");
    }
    expect((await deliveryOf(succeeded)).attempts).toBe(1);

    await deleteEndpoint(database.db, scope, endpoint.id);
    expect(await replayDelivery(deps, ids[0]!, scope)).toBe(false);
  });

  it("a test event goes to the chosen endpoint only, even while disabled; scheduled events skip disabled endpoints", async () => {
    const { scope, endpoint, secret } = await newEndpoint();
    const other = await newEndpoint(scope);
    await setEnabled(database.db, endpoint.id, false, "disabled_by_partner", scope);
    const event = await sendTestEvent(deps, endpoint);
    const deliveries = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, event.id));
    expect(deliveries.map((d) => d.endpointId)).toEqual([endpoint.id]);
    expect(await runNext(deliveries[0]!.id)).toBe("succeeded");
    const payload = new Webhook(secret).verify(receiver.received[0]!.body, headersOf(0)) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload).toMatchObject({ type: "webhook.test", data: { endpoint_id: endpoint.id } });
    expect((await attemptsOf(deliveries[0]!.id))[0]!.trigger).toBe("test");
    expect((await emit(scope)).deliveries.map((d) => d.endpointId)).toEqual([other.endpoint.id]);
  });
});

describe("endpoints", () => {
  it("are scoped by partner and mode; deletion is soft and stops deliveries", async () => {
    const { scope, endpoint, secret } = await newEndpoint();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint.secret).toBe(secret);
    const stranger = await newScope();
    const otherMode: Scope = { ...scope, mode: "live" };
    await grantLiveAccess(scope.partnerId);
    for (const s of [stranger, otherMode]) {
      expect(await getEndpoint(database.db, s, endpoint.id)).toBeNull();
      expect(await listEndpoints(database.db, s)).toEqual([]);
      expect(await rotateSecret(database.db, s, endpoint.id)).toEqual({ rotated: false, reason: "not_found" });
      expect(await setEnabled(database.db, endpoint.id, false, "x", s)).toBe(false);
      expect(await deleteEndpoint(database.db, s, endpoint.id)).toBe(false);
    }
    expect(await getEndpoint(database.db, scope, "not-a-uuid")).toBeNull();
    expect((await listEndpoints(database.db, scope)).map((e) => e.id)).toEqual([endpoint.id]);

    const pending = (await emit(scope)).deliveries[0]!.id;
    expect(await deleteEndpoint(database.db, scope, endpoint.id)).toBe(true);
    expect(await listEndpoints(database.db, scope)).toEqual([]);
    expect((await endpointOf(endpoint.id)).deletedAt).not.toBeNull();
    expect(await runNext(pending)).toBe("skipped");
    expect(await deliveryOf(pending)).toMatchObject({ status: "failed", lastError: "endpoint deleted" });
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses unacceptable URLs at creation", async () => {
    const live = await newScope("live");
    const test = await newScope("test");
    const create = (scope: Scope, url: string) =>
      createEndpoint(database.db, scope, { url }, { allowPrivate: false, maxEndpoints: 20 });
    await expect(create(live, "http://example.com/hook")).rejects.toThrow(
      new DomainError("validation_error", "The URL must use https in live mode.", [
        { pointer: "/url", detail: "The URL must use https in live mode." },
      ]),
    );
    await expect(create(test, "https://10.0.0.8/hook")).rejects.toThrow(DomainError);
    await expect(create(test, "https://user:pw@example.com/hook")).rejects.toThrow(/credentials/);
    await expect(create(live, "https://example.com/hook")).resolves.toMatchObject({
      endpoint: { url: "https://example.com/hook", enabled: true },
    });
  });

  it("a rotated secret keeps signing alongside the new one for 24 hours, then stops", async () => {
    const { scope, endpoint, secret: oldSecret } = await newEndpoint();
    const before = Date.now();
    const rotation = await rotateSecret(database.db, scope, endpoint.id);
    if (!rotation.rotated) throw new Error(`not rotated: ${rotation.reason}`);
    const newSecret = rotation.secret;
    const rotated = await endpointOf(endpoint.id);
    expect(rotated).toMatchObject({ secret: newSecret, previousSecret: oldSecret });
    expect(rotated.previousSecretExpiresAt!.getTime() - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(rotated.previousSecretExpiresAt!.getTime() - before).toBeLessThanOrEqual(24 * 3600_000 + 1000);

    await runNext((await emit(scope)).deliveries[0]!.id);
    expect(headersOf(0)["webhook-signature"]!.split(" ")).toHaveLength(2);
    for (const s of [oldSecret, newSecret])
      expect(() => new Webhook(s).verify(receiver.received[0]!.body, headersOf(0))).not.toThrow();

    // The partner ends the overlap at once (the portal's "Expire old secret now"); a second call has nothing to end.
    expect(await expirePreviousSecret(database.db, scope, endpoint.id)).toBe(true);
    expect(await expirePreviousSecret(database.db, scope, endpoint.id)).toBe(false);
    await runNext((await emit(scope)).deliveries[0]!.id);
    expect(headersOf(1)["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(() => new Webhook(newSecret).verify(receiver.received[1]!.body, headersOf(1))).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(receiver.received[1]!.body, headersOf(1))).toThrow();
  });

  it("a rotation inside an open overlap is refused unless its end is confirmed; the overlap is the partner's choice", async () => {
    const { scope, endpoint, secret: first } = await newEndpoint();
    const now = new Date();
    const second = await rotateSecret(database.db, scope, endpoint.id, { overlap: "1h" }, now);
    expect(second).toMatchObject({ rotated: true, previousSecretExpiresAt: new Date(now.getTime() + 3600_000) });
    // Again within the hour: the receiver may still run on `first`; nothing changes.
    expect(await rotateSecret(database.db, scope, endpoint.id, {}, now)).toEqual({
      rotated: false,
      reason: "overlap_open",
      overlapEndsAt: new Date(now.getTime() + 3600_000),
    });
    expect(await endpointOf(endpoint.id)).toMatchObject({
      secret: second.rotated && second.secret,
      previousSecret: first,
    });
    // Confirmed: `first` stops signing, the secret that was current keeps signing beside the new one.
    const third = await rotateSecret(database.db, scope, endpoint.id, { endOpenOverlap: true, overlap: "24h" }, now);
    if (!third.rotated || !second.rotated) throw new Error("not rotated");
    expect(await endpointOf(endpoint.id)).toMatchObject({ secret: third.secret, previousSecret: second.secret });
    // Once an overlap is over, a rotation needs no confirmation; "now" keeps no previous secret at all.
    const later = new Date(now.getTime() + 25 * 3600_000);
    const fourth = await rotateSecret(database.db, scope, endpoint.id, { overlap: "now" }, later);
    if (!fourth.rotated) throw new Error("not rotated");
    expect(await endpointOf(endpoint.id)).toMatchObject({
      secret: fourth.secret,
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
  });
});
