// The pg-boss worker end to end: its own database, since a live worker takes every queued job.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aProperty } from "@/test/support/payloads";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { schema, type Database } from "@/lib/db";
import { loadConfig } from "@/lib/config";
import { createLogger } from "@/lib/observability/logger";
import { enqueue, QUEUES, startQueue, type Queue } from "@/lib/queue";
import { startReceiver, type Receiver } from "@/test/support/receiver";
import { freePort } from "@/test/support/ports";
import { eventually } from "@/test/support/wait";
import { registerDeliverWebhookWorker } from "@/jobs/deliver-webhook";
import { createEndpoint } from "./endpoints";
import { recordEvent } from "./events";
import { createTestDatabase, type TestDatabase } from "@/test/support/database";

const { partners, webhookDeliveries, webhookAttempts } = schema;

let testDb: TestDatabase;
let database: Database;
let queue: Queue;
const receivers: Receiver[] = [];
beforeAll(async () => {
  const config = loadConfig({
    FINCA_WEBHOOKS_ALLOW_PRIVATE: "1",
    WEBHOOK_RETRY_SCHEDULE_TEST: "1,1,1,1,1",
    WEBHOOK_TIMEOUT_MS: "5000",
    JOB_POLL_SECONDS: "0.5",
  });
  testDb = await createTestDatabase();
  database = testDb.database;
  queue = await startQueue(database, config, createLogger({ level: "warn" }));
  await registerDeliverWebhookWorker(queue, { db: database.db, queue, config }, config.JOB_POLL_SECONDS);
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await queue.stop({ graceful: false, wait: true, timeout: 2000 });
  await testDb.drop();
});

async function setup(url: string) {
  const [partner] = await database.db
    .insert(partners)
    .values({ name: `Partner ${url}` })
    .returning();
  const scope = { partnerId: partner!.id, mode: "test" as const };
  const { secret } = await createEndpoint(database.db, scope, { url }, { allowPrivate: true, maxEndpoints: 20 });
  return { scope, secret };
}

const attemptsOf = (deliveryId: string) =>
  database.db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, deliveryId))
    .orderBy(webhookAttempts.id);

// Independent endpoints; concurrent to keep the file quick.
describe.concurrent("deliver-webhook worker", () => {
  it("a receiver that is down for several attempts gets the event afterwards, with the same webhook-id", async () => {
    const port = await freePort();
    const { scope, secret } = await setup(`http://127.0.0.1:${port}/hooks`);
    const event = await database.db.transaction((tx) =>
      recordEvent(tx, queue, { ...scope, type: "property.enriched", propertyId: null, payload: aProperty() }),
    );
    const [delivery] = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, event.id));

    await eventually(
      "two attempts fail against the closed port",
      async () => (await attemptsOf(delivery!.id)).length >= 2,
      { intervalMs: 100 },
    );
    const receiver = await startReceiver(port);
    receivers.push(receiver);
    const hit = await eventually("the event reaches the receiver once it is up", () => receiver.received[0], {
      intervalMs: 100,
    });
    expect(hit.headers["webhook-id"]).toBe(delivery!.messageId);
    expect(() => new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>)).not.toThrow();

    const log = await eventually(
      "the attempt log ends with the 200",
      async () => {
        const rows = await attemptsOf(delivery!.id);
        return rows.at(-1)?.statusCode === 200 && rows;
      },
      { intervalMs: 100 },
    );
    expect(log.slice(0, -1).every((a) => a.errorClass === "refused")).toBe(true);
    expect(
      (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery!.id)))[0],
    ).toMatchObject({ status: "succeeded" });
  });

  it("a job failing in the same batch does not get a slow delivery sent twice", async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    receiver.script({ hangMs: 2500 });
    const { scope } = await setup(receiver.url);
    const event = await database.db.transaction(async (tx) => {
      // Queued together, so one batch: a job whose run throws (a malformed id fails the query) ...
      await enqueue(queue, tx, QUEUES.deliverWebhook, { deliveryId: "not-a-uuid", attempt: 0, trigger: "scheduled" });
      // ... and a delivery whose receiver takes a while to answer.
      return recordEvent(tx, queue, { ...scope, type: "property.enriched", propertyId: null, payload: aProperty() });
    });
    // pg-boss retries the failed batch after about a second, while the send is still open; once the
    // attempt is logged a retry would be skipped, so any second send has happened by then.
    await eventually(
      "the delivery succeeds",
      async () => {
        const [d] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event.id));
        return d?.status === "succeeded";
      },
      { intervalMs: 100 },
    );
    expect(receiver.received).toHaveLength(1);
  });
});
