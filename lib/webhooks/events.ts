// Recording an event: the event row, one delivery per enabled endpoint, one durable delivery job
// each, all in the caller's transaction (an event exists iff its deliveries are scheduled).
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { bare, rowsOf, schema, type DbOrTx } from "@/lib/db";
import type { DeliveryTrigger, Mode } from "@/lib/domain";
import { enqueue, QUEUES, type Queue } from "@/lib/queue";

const { events, webhookDeliveries, webhookEndpoints } = schema;
export type EventRow = typeof events.$inferSelect;

export interface DeliverJob {
  deliveryId: string;
  /** The delivery's attempt count when the job was queued: a job that finds another count is stale. */
  attempt: number;
  /**
   * Position in the retry schedule of this job's attempt: 0 for a first attempt or a replay.
   * Absent in jobs queued before replays reset the schedule; their position is `attempt`.
   */
  step?: number;
  trigger: DeliveryTrigger;
}

/** `webhook-id`: one per event, the same for every attempt, replay and endpoint. */
export const messageIdOf = (eventId: string) => `msg_${eventId.replaceAll("-", "")}`;

export interface EventInput {
  partnerId: string;
  mode: Mode;
  type: string;
  propertyId: string | null;
  payload: Record<string, unknown>;
}

/**
 * Records the event and schedules it to every enabled endpoint of the partner and mode that takes
 * its type: the event
 * and its delivery rows in one statement (every durable run that finishes does this, so round
 * trips count), then one job per delivery.
 */
export async function recordEvent(tx: DbOrTx, queue: Queue, input: EventInput): Promise<EventRow> {
  const id = randomUUID();
  const [row] = rowsOf<{ created_at: Date; delivery_ids: string[] }>(
    await tx.execute(sql`
      with event as (
        insert into ${events} (${bare(events.id)}, ${bare(events.partnerId)}, ${bare(events.mode)}, ${bare(events.type)}, ${bare(events.propertyId)}, ${bare(events.payload)})
        values (${id}::uuid, ${input.partnerId}::uuid, ${input.mode}, ${input.type}, ${input.propertyId}::uuid, ${JSON.stringify(input.payload)}::jsonb)
        returning ${bare(events.createdAt)}
      ), deliveries as (
        insert into ${webhookDeliveries} (${bare(webhookDeliveries.eventId)}, ${bare(webhookDeliveries.endpointId)}, ${bare(webhookDeliveries.messageId)}, ${bare(webhookDeliveries.nextAttemptAt)})
        select ${id}::uuid, ${webhookEndpoints.id}, ${messageIdOf(id)}, now() from ${webhookEndpoints}
        where ${webhookEndpoints.partnerId} = ${input.partnerId}::uuid and ${webhookEndpoints.mode} = ${input.mode}
          and ${webhookEndpoints.enabled} and ${webhookEndpoints.deletedAt} is null
          and (${webhookEndpoints.eventTypes} is null or ${input.type} = any(${webhookEndpoints.eventTypes}))
        returning ${bare(webhookDeliveries.id)}
      )
      select (select ${bare(events.createdAt)} from event) as created_at, array(select ${bare(webhookDeliveries.id)}::text from deliveries) as delivery_ids`),
  );
  await enqueueFirstAttempts(tx, queue, row!.delivery_ids, "scheduled");
  return { id, ...input, createdAt: new Date(row!.created_at) };
}

/** One delivery row and one immediate job per endpoint; returns the delivery ids. */
export async function scheduleDeliveries(tx: DbOrTx, queue: Queue, event: EventRow, endpointIds: string[], trigger: DeliveryTrigger): Promise<string[]> {
  if (!endpointIds.length) return [];
  const deliveries = await tx
    .insert(webhookDeliveries)
    .values(endpointIds.map((endpointId) => ({ eventId: event.id, endpointId, messageId: messageIdOf(event.id), nextAttemptAt: new Date() })))
    .returning({ id: webhookDeliveries.id });
  const ids = deliveries.map((d) => d.id);
  await enqueueFirstAttempts(tx, queue, ids, trigger);
  return ids;
}

/** The immediate job of each new delivery, in the transaction that created it. */
async function enqueueFirstAttempts(tx: DbOrTx, queue: Queue, deliveryIds: string[], trigger: DeliveryTrigger) {
  for (const deliveryId of deliveryIds) {
    await enqueue(queue, tx, QUEUES.deliverWebhook, { deliveryId, attempt: 0, step: 0, trigger } satisfies DeliverJob);
  }
}

/** The body on the wire: `{type, timestamp, data}`, the timestamp being the event's time. */
export function wirePayload(event: EventRow): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.payload });
}
