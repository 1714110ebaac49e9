// Durable enrichment runs (pg-boss). Thin: the pipeline in lib/enrichment does the work.
import { QUEUES, workInParallel, type Queue } from "@/lib/queue";
import { runEnrichmentJob, type EnrichmentDeps } from "@/lib/enrichment/pipeline";

export type EnrichJob = { propertyId: string; run: number };

// Runs mostly wait on registers (each source has its own timeout and concurrency cap).
const WORKERS = 2;
const BATCH = 25;
/** Runs in flight per process at most (bench/pipeline's baseline uses the same). */
export const ENRICH_CONCURRENCY = WORKERS * BATCH;

export async function registerEnrichWorker(queue: Queue, deps: EnrichmentDeps) {
  // A retried batch re-runs finished runs too: their run number is stale and they do nothing.
  await workInParallel<EnrichJob>(queue, QUEUES.enrich, { workers: WORKERS, batchSize: BATCH, pollSeconds: deps.config.JOB_POLL_SECONDS }, (job) =>
    runEnrichmentJob(deps, job.propertyId, job.run),
  );
}
