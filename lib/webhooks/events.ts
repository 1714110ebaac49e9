// Recording an event: the event row, one delivery per enabled endpoint, one durable delivery job
// each, all in the caller's transaction (an event exists iff its deliveries are scheduled).
import { and, eq, isNull } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";
import type { Mode } from "@/drizzle/schema";
import { enqueue, QUEUES, type Queue } from "@/lib/queue";

const { events, webhookEndpoints, webhookDeliveries } = schema;

export interface DeliverJob {
  deliveryId: string;
  /** The delivery's attempt count when the job was queued: a job that finds another count is stale. */
  attempt: number;
  trigger: "scheduled" | "manual_replay" | "test";
}

/** `webhook-id`: one per event, the same for every attempt, replay and endpoint. */
export const messageIdOf = (eventId: string) => `msg_${eventId.replaceAll("-", "")}`;

export async function recordEvent(
  tx: DbOrTx,
  queue: Queue,
  input: { partnerId: string; mode: Mode; type: string; propertyId: string | null; payload: Record<string, unknown> },
  options: { endpointId?: string; trigger?: DeliverJob["trigger"] } = {},
) {
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
        options.endpointId ? eq(webhookEndpoints.id, options.endpointId) : undefined,
      ),
    );
  if (endpoints.length) {
    const deliveries = await tx
      .insert(webhookDeliveries)
      .values(endpoints.map((e) => ({ eventId: event!.id, endpointId: e.id, messageId: messageIdOf(event!.id), nextAttemptAt: new Date() })))
      .returning({ id: webhookDeliveries.id });
    for (const d of deliveries) {
      await enqueue(queue, tx, QUEUES.deliverWebhook, { deliveryId: d.id, attempt: 0, trigger: options.trigger ?? "scheduled" } satisfies DeliverJob);
    }
  }
  return event!;
}

/** The body on the wire: `{type, timestamp, data}`. */
export function wirePayload(event: typeof events.$inferSelect): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.payload });
}
