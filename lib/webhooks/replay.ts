// Operator and partner actions on deliveries: a test event, replaying one delivery, replaying the
// failed ones since a time. Replays keep the `webhook-id`, so receivers can deduplicate.
import { and, desc, eq, gte, inArray, isNull } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";
import { enqueueMany, QUEUES, type Queue } from "@/lib/queue";
import { scheduleDeliveries, type DeliverJob, type EventRow } from "./events";
import { isUuid, type Scope } from "@/lib/domain";
import { requireLiveAccess } from "@/lib/partners/live";
import type { EndpointRow } from "./endpoints";

const { events, webhookDeliveries, webhookEndpoints } = schema;

type Deps = { db: DbOrTx; queue: Queue };

/** What a test event's `data.message` says. */
export const TEST_EVENT_MESSAGE = "Test event from Finca: your endpoint is reachable and verifies signatures.";

/**
 * A `webhook.test` event to this one endpoint, sent now even if the endpoint is disabled (checking
 * it before enabling it again is the point). The caller has checked the endpoint is the partner's.
 */
export async function sendTestEvent(deps: Deps, endpoint: EndpointRow): Promise<EventRow> {
  await requireLiveAccess(deps.db, endpoint);
  return deps.db.transaction(async (tx) => {
    const [event] = await tx
      .insert(events)
      .values({
        partnerId: endpoint.partnerId,
        mode: endpoint.mode,
        type: "webhook.test",
        propertyId: null,
        payload: {
          endpoint_id: endpoint.id,
          message: TEST_EVENT_MESSAGE,
        },
      })
      .returning();
    await scheduleDeliveries(tx, deps.queue, event!, [endpoint.id], "test");
    return event!;
  });
}

/**
 * Queues a manual attempt now, with the retry schedule starting over. `scope` limits it to a
 * partner's mode (omitted for operators). Deliveries to deleted endpoints are not replayed.
 */
export async function replayDelivery(deps: Deps, deliveryId: string, scope?: Scope): Promise<boolean> {
  if (scope) await requireLiveAccess(deps.db, scope);
  return deps.db.transaction(async (tx) => (await replayInTx(tx, deps.queue, { deliveryId, scope })) > 0);
}

/** Failed deliveries one "replay all" queues at most: a click cannot re-queue an endpoint's whole history. */
const REPLAY_ALL_MAX = 1000;

/**
 * Replays the failed deliveries to the endpoint created at or after `since`, the newest `max` of
 * them (another click takes the next ones); returns how many.
 */
export async function replayFailedSince(
  deps: Deps,
  endpointId: string,
  since: Date,
  scope?: Scope,
  max = REPLAY_ALL_MAX,
): Promise<number> {
  if (scope) await requireLiveAccess(deps.db, scope);
  return deps.db.transaction((tx) => replayInTx(tx, deps.queue, { endpointId, since, scope, max }));
}

async function replayInTx(
  tx: DbOrTx,
  queue: Queue,
  filter: { deliveryId: string; scope?: Scope } | { endpointId: string; since: Date; scope?: Scope; max: number },
): Promise<number> {
  if (!isUuid("deliveryId" in filter ? filter.deliveryId : filter.endpointId)) return 0;
  const rows = await tx
    .select({ id: webhookDeliveries.id, messageId: webhookDeliveries.messageId, attempts: webhookDeliveries.attempts })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        isNull(webhookEndpoints.deletedAt),
        filter.scope
          ? and(eq(webhookEndpoints.partnerId, filter.scope.partnerId), eq(webhookEndpoints.mode, filter.scope.mode))
          : undefined,
        "deliveryId" in filter
          ? eq(webhookDeliveries.id, filter.deliveryId)
          : and(
              eq(webhookDeliveries.endpointId, filter.endpointId),
              eq(webhookDeliveries.status, "failed"),
              gte(webhookDeliveries.createdAt, filter.since),
            ),
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit("max" in filter ? filter.max : 1)
    .for("update", { of: webhookDeliveries });
  if (!rows.length) return 0;
  const now = new Date();
  await tx
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: now, updatedAt: now })
    .where(
      inArray(
        webhookDeliveries.id,
        rows.map((r) => r.id),
      ),
    );
  // The job carries the current attempt count: a retry already queued carries the same one, so
  // whichever runs first sends and the other finds the count moved on and does nothing.
  await enqueueMany(
    queue,
    tx,
    QUEUES.deliverWebhook,
    rows.map((row) => ({
      data: {
        deliveryId: row.id,
        messageId: row.messageId,
        attempt: row.attempts,
        step: 0,
        trigger: "manual_replay",
      } satisfies DeliverJob,
    })),
  );
  return rows.length;
}
