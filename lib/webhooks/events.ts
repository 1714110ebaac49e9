// Recording an event: the event row, one delivery per enabled endpoint, one durable delivery job
// each, all in the caller's transaction (an event exists iff its deliveries are scheduled).
import { and, eq, isNull } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";
import type { Mode } from "@/drizzle/schema";
import { enqueue, QUEUES, type Queue } from "@/lib/queue";

const { events, webhookEndpoints, webhookDeliveries } = schema;
export type EventRow = typeof events.$inferSelect;

export type DeliveryTrigger = "scheduled" | "manual_replay" | "test";

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

/** Records the event and schedules it to every enabled endpoint of the partner and mode. */
export async function recordEvent(tx: DbOrTx, queue: Queue, input: EventInput): Promise<EventRow> {
  const [event] = await tx.insert(events).values(input).returning();
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.partnerId, input.partnerId),
        eq(webhookEndpoints.mode, input.mode),
        eq(webhookEndpoints.enabled, true),
        isNull(webhookEndpoints.deletedAt),
      ),
    );
  await scheduleDeliveries(tx, queue, event!, endpoints.map((e) => e.id), "scheduled");
  return event!;
}

/** One delivery row and one immediate job per endpoint; returns the delivery ids. */
export async function scheduleDeliveries(tx: DbOrTx, queue: Queue, event: EventRow, endpointIds: string[], trigger: DeliveryTrigger): Promise<string[]> {
  if (!endpointIds.length) return [];
  const deliveries = await tx
    .insert(webhookDeliveries)
    .values(endpointIds.map((endpointId) => ({ eventId: event.id, endpointId, messageId: messageIdOf(event.id), nextAttemptAt: new Date() })))
    .returning({ id: webhookDeliveries.id });
  for (const d of deliveries) {
    await enqueue(queue, tx, QUEUES.deliverWebhook, { deliveryId: d.id, attempt: 0, step: 0, trigger } satisfies DeliverJob);
  }
  return deliveries.map((d) => d.id);
}

/** The body on the wire: `{type, timestamp, data}`, the timestamp being the event's time. */
export function wirePayload(event: EventRow): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.payload });
}
