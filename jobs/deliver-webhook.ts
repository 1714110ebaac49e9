// Durable webhook deliveries (pg-boss), one job per attempt. Thin: lib/webhooks/deliver does the work.
import { QUEUES, type Queue } from "@/lib/queue";
import { deliverOnce, type DeliveryDeps } from "@/lib/webhooks/deliver";
import type { DeliverJob } from "@/lib/webhooks/events";

export async function registerDeliverWebhookWorker(queue: Queue, deps: DeliveryDeps, options: { batchSize?: number } = {}) {
  return queue.work<DeliverJob>(
    QUEUES.deliverWebhook,
    { batchSize: options.batchSize ?? 16, pollingIntervalSeconds: deps.config.JOB_POLL_SECONDS },
    // A throw fails the batch and pg-boss retries it; jobs whose attempt was logged are then skipped.
    async (jobs) => {
      await Promise.all(jobs.map((job) => deliverOnce(deps, job.data)));
    },
  );
}
