// Durable enrichment runs (pg-boss). Thin: the pipeline in lib/enrichment does the work.
import type { Queue } from "@/lib/queue";
import { QUEUES } from "@/lib/queue";
import { enrichProperty, type EnrichmentDeps } from "@/lib/enrichment/pipeline";

export type EnrichJob = { propertyId: string; run: number };

/** A run's own time limit; well under the queue's expiry so a live worker is never presumed dead. */
const RUN_DEADLINE_MS = 30_000;

export async function registerEnrichWorker(queue: Queue, deps: EnrichmentDeps, options: { batchSize?: number } = {}) {
  return queue.work<EnrichJob>(
    QUEUES.enrich,
    { batchSize: options.batchSize ?? 8, pollingIntervalSeconds: deps.config.JOB_POLL_SECONDS },
    // Jobs of a batch run side by side; a throw fails only the batch's job set, and pg-boss retries them.
    async (jobs) => {
      await Promise.all(
        jobs.map((job) =>
          enrichProperty(deps, job.data.propertyId, {
            trigger: "job",
            run: job.data.run,
            deadlineAt: Date.now() + Math.min(RUN_DEADLINE_MS, (deps.config.JOB_EXPIRE_SECONDS * 1000) / 2),
          }),
        ),
      );
    },
  );
}
