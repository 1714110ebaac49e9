// A batch of delivery jobs where one cannot run (here an event whose stored payload is off the
// contract's schema, our bug): the others are sent once and written, the bad one's delivery fails
// where operators see it, and a rerun of the batch (pg-boss retrying it) sends nothing again. And
// an endpoint deleted while its delivery waits for a slot is not called.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { rowsOf, schema, type Database } from "@/lib/db";
import type { Property } from "@/lib/domain";
import { createLogger } from "@/lib/observability/logger";
import { startQueue, type Queue } from "@/lib/queue";
import { deliverMany, type DeliveryDeps } from "@/lib/webhooks/deliver";
import { createEndpoint, deleteEndpoint } from "@/lib/webhooks/endpoints";
import { deliverySlots } from "@/lib/webhooks/fair-share";
import { recordEvent, type DeliverJob } from "@/lib/webhooks/events";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { aProperty } from "../support/payloads";
import { startReceiver, type Receiver } from "../support/receiver";

const { partners, webhookDeliveries } = schema;
let testDb: TestDatabase;
let database: Database;
let queue: Queue;
let deps: DeliveryDeps;
let receiver: Receiver;
beforeAll(async () => {
  const config = loadConfig({ FINCA_WEBHOOKS_ALLOW_PRIVATE: "1", WEBHOOK_TIMEOUT_MS: "5000" });
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

/** The job pg-boss holds for a delivery (made in the event's transaction). */
async function jobOf(deliveryId: string): Promise<DeliverJob> {
  const job = sql`select data from pgboss.job where name = 'deliver-webhook' and data->>'deliveryId' = ${deliveryId}`;
  return rowsOf<{ data: DeliverJob }>(await database.db.execute(job))[0]!.data;
}

it("sends and writes the rest of a batch when one job cannot run, and a rerun sends nothing twice", async () => {
  const [partner] = await database.db.insert(partners).values({ name: "Batch failure" }).returning();
  const scope = { partnerId: partner!.id, mode: "test" as const };
  await createEndpoint(database.db, scope, { url: receiver.url }, { allowPrivate: true, maxEndpoints: 20 });
  const record = (payload: Property) =>
    database.db.transaction((tx) =>
      recordEvent(tx, queue, { ...scope, type: "property.enriched", propertyId: null, payload }),
    );
  const good = await record(aProperty());
  const bad = await record({ property_id: "x" } as unknown as Property);
  const deliveryOf = async (eventId: string) =>
    (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)))[0]!;
  const jobs = [await jobOf((await deliveryOf(good.id)).id), await jobOf((await deliveryOf(bad.id)).id)];

  await expect(deliverMany(deps, jobs)).rejects.toThrow(/stored payload is not the contract's/);
  expect(receiver.received).toHaveLength(1);
  expect(await deliveryOf(good.id)).toMatchObject({ status: "succeeded", attempts: 1 });
  expect(await deliveryOf(bad.id)).toMatchObject({ status: "failed", attempts: 0 });
  expect((await deliveryOf(bad.id)).lastError).toMatch(/^its payload could not be made: /);

  // pg-boss retries the batch: both jobs are found done.
  expect(await deliverMany(deps, jobs)).toEqual(["skipped", "skipped"]);
  expect(receiver.received).toHaveLength(1);
});

it("does not call an endpoint deleted while its delivery waited for a slot: the delivery fails", async () => {
  const [partner] = await database.db.insert(partners).values({ name: "Deleted while waiting" }).returning();
  const scope = { partnerId: partner!.id, mode: "test" as const };
  const { endpoint } = await createEndpoint(
    database.db,
    scope,
    { url: receiver.url },
    { allowPrivate: true, maxEndpoints: 20 },
  );
  const event = await database.db.transaction((tx) =>
    recordEvent(tx, queue, { ...scope, type: "property.enriched", propertyId: null, payload: aProperty() }),
  );
  const [delivery] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event.id));
  const slots = deliverySlots(10, { min: 1, max: 10, latencyTargetMs: 5000 });
  // Another delivery to the endpoint holds its one slot.
  const held = (await slots.wait(scope.partnerId, endpoint.id))!;
  const before = receiver.received.length;
  // Deleted once the delivery, its endpoint read as it was, asks for the slot.
  let asking = () => {};
  const asked = new Promise<void>((resolve) => (asking = resolve));
  const watched = {
    ...slots,
    wait: (partnerId: string, endpointId: string) => (asking(), slots.wait(partnerId, endpointId)),
  };
  const run = deliverMany({ ...deps, slots: watched }, [await jobOf(delivery!.id)]);
  await asked;
  expect(await deleteEndpoint(database.db, scope, endpoint.id)).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 50));
  held({ startedAt: 0, endedAt: 1, statusCode: 200 });
  expect(await run).toEqual(["skipped"]);
  expect(receiver.received.length).toBe(before);
  const [after] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery!.id));
  expect(after).toMatchObject({ status: "failed", lastError: "endpoint deleted", attempts: 0 });
});
