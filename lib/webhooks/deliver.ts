// One delivery attempt: sign, send, log the attempt, then succeed, schedule the next try per the
// contract's schedule, or give up — the log, the state and the next job in one transaction.
import { and, eq, sql } from "drizzle-orm";
import { schema, type Db } from "@/lib/db";
import type { Config } from "@/lib/config";
import { enqueue, QUEUES, type Queue } from "@/lib/queue";
import type { Mode } from "@/drizzle/schema";
import { signingSecrets } from "./endpoints";
import { wirePayload, type DeliverJob } from "./events";
import { webhookHeaders } from "./sign";
import { sendWebhook, type SendResult } from "./send";
import type { Resolver } from "./ssrf";

const { webhookDeliveries, webhookEndpoints, webhookAttempts, events } = schema;

export interface DeliveryDeps {
  db: Db;
  queue: Queue;
  config: Config;
  /** Tests inject a resolver; production uses the system's. */
  resolver?: Resolver;
  now?: () => Date;
}

export const FAILING_DISABLE_MS = 5 * 24 * 3600_000;

export function deliverySchedule(config: Config, mode: Mode): number[] {
  return mode === "test" ? config.WEBHOOK_RETRY_SCHEDULE_TEST : config.WEBHOOK_RETRY_SCHEDULE;
}

/** Seconds until the next try after failed attempt `attempt` (1-based), or null when retries are exhausted. */
export function nextDelaySeconds(schedule: number[], attempt: number, result: Pick<SendResult, "statusCode" | "retryAfterSeconds">): number | null {
  const scheduled = schedule[attempt - 1];
  if (scheduled === undefined) return null;
  // A receiver's Retry-After (429/503) is honoured up to the next scheduled delay, never beyond it.
  if ((result.statusCode === 429 || result.statusCode === 503) && result.retryAfterSeconds !== null) {
    return Math.min(result.retryAfterSeconds, scheduled);
  }
  return scheduled;
}

export type DeliveryOutcome = "succeeded" | "retry" | "failed" | "skipped";

export async function deliverOnce(deps: DeliveryDeps, job: DeliverJob): Promise<DeliveryOutcome> {
  const now = deps.now ?? (() => new Date());
  const [row] = await deps.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, job.deliveryId));
  // Stale job (its attempt was already logged) or a delivery replayed/finished meanwhile.
  if (!row || row.delivery.attempts !== job.attempt || row.delivery.status !== "pending") return "skipped";
  const { delivery, endpoint, event } = row;
  if (!endpoint.enabled || endpoint.deletedAt) {
    await deps.db
      .update(webhookDeliveries)
      .set({ status: "failed", lastError: `endpoint ${endpoint.deletedAt ? "deleted" : "disabled"}`, nextAttemptAt: null, updatedAt: now() })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, job.attempt)));
    return "skipped";
  }
  if (endpoint.mode === "live" && !endpoint.url.startsWith("https:")) throw new Error("live endpoint without https"); // refused at creation; never sent

  const body = wirePayload(event);
  const startedAt = now();
  const result = await sendWebhook(endpoint.url, webhookHeaders(signingSecrets(endpoint, startedAt), delivery.messageId, startedAt, body), body, {
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: deps.config.FINCA_WEBHOOKS_ALLOW_PRIVATE,
    resolver: deps.resolver,
  });
  const attempt = delivery.attempts + 1;
  const failingSince = result.ok ? null : (endpoint.failingSince ?? startedAt);
  const gone = result.statusCode === 410;
  const failingTooLong = !result.ok && failingSince !== null && now().getTime() - failingSince.getTime() >= FAILING_DISABLE_MS;
  const delay = result.ok || gone || failingTooLong ? null : nextDelaySeconds(deliverySchedule(deps.config, endpoint.mode), attempt, result);
  const outcome: DeliveryOutcome = result.ok ? "succeeded" : delay === null ? "failed" : "retry";

  await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({
        status: outcome === "retry" ? "pending" : outcome,
        attempts: attempt,
        lastStatusCode: result.statusCode,
        lastError: result.error,
        nextAttemptAt: delay === null ? null : new Date(now().getTime() + delay * 1000),
        updatedAt: now(),
        ...(result.ok ? { deliveredAt: now() } : {}),
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, job.attempt)))
      .returning({ id: webhookDeliveries.id });
    if (!updated) return; // another worker logged this attempt first
    await tx.insert(webhookAttempts).values({
      deliveryId: delivery.id,
      trigger: job.trigger,
      startedAt,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      responseBody: result.responseBody,
      errorClass: result.errorClass,
      error: result.error?.slice(0, 500) ?? null,
    });
    await tx
      .update(webhookEndpoints)
      .set({
        failingSince,
        ...(gone ? { enabled: false, disabledReason: "gone_410" } : failingTooLong ? { enabled: false, disabledReason: "failing_5_days" } : {}),
      })
      .where(eq(webhookEndpoints.id, endpoint.id));
    if (delay !== null) {
      await enqueue(deps.queue, tx, QUEUES.deliverWebhook, { deliveryId: delivery.id, attempt, trigger: "scheduled" } satisfies DeliverJob, { delaySeconds: delay });
    }
  });
  return outcome;
}

/** Counts for dashboards: deliveries by status for one partner and mode. */
export async function deliveryCounts(db: Db, partnerId: string, mode: Mode) {
  const rows = await db
    .select({ status: webhookDeliveries.status, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookEndpoints.partnerId, partnerId), eq(webhookEndpoints.mode, mode)))
    .groupBy(webhookDeliveries.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Partial<Record<"pending" | "succeeded" | "failed", number>>;
}
