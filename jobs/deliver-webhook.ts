// Durable webhook deliveries (pg-boss), one job per attempt. Thin: lib/webhooks/deliver does the work.
import { QUEUES, type Queue } from "@/lib/queue";
import { deliverOnce, type DeliveryDeps } from "@/lib/webhooks/deliver";
import type { DeliverJob } from "@/lib/webhooks/events";

export async function registerDeliverWebhookWorker(queue: Queue, deps: DeliveryDeps, options: { batchSize?: number } = {}) {
  return queue.work<DeliverJob>(
    QUEUES.deliverWebhook,
    { batchSize: options.batchSize ?? 16, pollingIntervalSeconds: deps.config.JOB_POLL_SECONDS },
    async (jobs) => {
      // Wait for every send before failing the batch: a retry handed out while a sibling is still
      // in flight would find its attempt not yet logged and send it a second time.
      const results = await Promise.allSettled(jobs.map((job) => deliverOnce(deps, job.data)));
      const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
      // pg-boss then retries the batch; jobs whose attempt was logged are skipped.
      if (failure) throw failure.reason;
    },
  );
}
