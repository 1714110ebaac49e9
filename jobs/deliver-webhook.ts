// Durable webhook deliveries (pg-boss), one job per attempt. Thin: lib/webhooks/deliver does the work.
import { QUEUES, workInBatches, type JobRun, type Queue } from "@/lib/queue";
import { deliverMany, type DeliveryDeps } from "@/lib/webhooks/deliver";

// Deliveries wait on receivers (up to 15 s), not on us: many in flight per process.
const WORKERS = 4;
const BATCH = 50;

export async function registerDeliverWebhookWorker(
  queue: Queue,
  deps: DeliveryDeps,
  pollSeconds: number,
  onRun?: (run: JobRun) => void,
) {
  // A batch is read and its successes written as one; a retried batch re-runs jobs whose attempt
  // was already logged: deliverMany skips those.
  await workInBatches(
    queue,
    QUEUES.deliverWebhook,
    { workers: WORKERS, batchSize: BATCH, pollSeconds, onRun },
    (jobs) => deliverMany(deps, jobs),
  );
}
