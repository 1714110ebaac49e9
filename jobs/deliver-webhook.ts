// Durable webhook deliveries (pg-boss), one job per attempt. Thin: lib/webhooks/deliver does the work.
import { QUEUES, workInParallel, type JobRun, type Queue } from "@/lib/queue";
import { deliverOnce, type DeliveryDeps } from "@/lib/webhooks/deliver";
import type { DeliverJob } from "@/lib/webhooks/events";

// Deliveries wait on receivers (up to 15 s), not on us: many in flight per process.
const WORKERS = 4;
const BATCH = 50;

export async function registerDeliverWebhookWorker(queue: Queue, deps: DeliveryDeps, pollSeconds: number, onRun?: (run: JobRun) => void) {
  // A retried batch re-runs jobs whose attempt was already logged: deliverOnce skips those.
  await workInParallel<DeliverJob>(queue, QUEUES.deliverWebhook, { workers: WORKERS, batchSize: BATCH, pollSeconds, onRun }, (job) => deliverOnce(deps, job));
}
