// Operator and partner actions on deliveries: a test event, replaying one delivery, replaying the
// failed ones since a time. Replays keep the `webhook-id`, so receivers can deduplicate.
import { and, eq, gte } from "drizzle-orm";
import { schema, type Db } from "@/lib/db";
import { enqueue, QUEUES, type Queue } from "@/lib/queue";
import { recordEvent, type DeliverJob } from "./events";
import type { EndpointRow } from "./endpoints";

const { webhookDeliveries, webhookEndpoints } = schema;

export async function sendTestEvent(deps: { db: Db; queue: Queue }, endpoint: EndpointRow) {
  return deps.db.transaction((tx) =>
    recordEvent(
      tx,
      deps.queue,
      {
        partnerId: endpoint.partnerId,
        mode: endpoint.mode,
        type: "webhook.test",
        propertyId: null,
        payload: { message: "Test event from Finca: your endpoint is reachable and verifies signatures." },
      },
      { endpointId: endpoint.id, trigger: "test" },
    ),
  );
}

/** Queues a manual attempt now. `partnerId` scopes it to a partner (omitted for operators). */
export async function replayDelivery(deps: { db: Db; queue: Queue }, deliveryId: string, partnerId?: string): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(and(eq(webhookDeliveries.id, deliveryId), partnerId ? eq(webhookEndpoints.partnerId, partnerId) : undefined))
      .for("update");
    if (!row) return false;
    // A retry already scheduled carries the same attempt count: whichever runs first sends, the
    // other finds the count moved on and does nothing.
    await tx.update(webhookDeliveries).set({ status: "pending", nextAttemptAt: new Date(), updatedAt: new Date() }).where(eq(webhookDeliveries.id, row.id));
    await enqueue(deps.queue, tx, QUEUES.deliverWebhook, { deliveryId: row.id, attempt: row.attempts, trigger: "manual_replay" } satisfies DeliverJob);
    return true;
  });
}

export async function replayFailedSince(deps: { db: Db; queue: Queue }, endpointId: string, since: Date, partnerId?: string): Promise<number> {
  const failed = await deps.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, "failed"),
        gte(webhookDeliveries.createdAt, since),
        partnerId ? eq(webhookEndpoints.partnerId, partnerId) : undefined,
      ),
    );
  let count = 0;
  for (const { id } of failed) if (await replayDelivery(deps, id, partnerId)) count++;
  return count;
}

