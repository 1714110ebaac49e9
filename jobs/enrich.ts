// Durable enrichment runs (pg-boss). Thin: the pipeline in lib/enrichment does the work.
import { QUEUES, type Queue } from "@/lib/queue";
import { runEnrichmentJob, type EnrichmentDeps } from "@/lib/enrichment/pipeline";

export type EnrichJob = { propertyId: string; run: number };

export async function registerEnrichWorker(queue: Queue, deps: EnrichmentDeps, options: { batchSize?: number } = {}) {
  return queue.work<EnrichJob>(
    QUEUES.enrich,
    { batchSize: options.batchSize ?? 8, pollingIntervalSeconds: deps.config.JOB_POLL_SECONDS },
    // Every job of the batch runs to its end before a failure is reported (so pg-boss never
    // re-hands out a job still running); stale retries of finished runs do nothing.
    async (jobs) => {
      const results = await Promise.allSettled(jobs.map((job) => runEnrichmentJob(deps, job.data.propertyId, job.data.run)));
      const failed = results.find((r) => r.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
    },
  );
}
