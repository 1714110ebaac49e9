// Durable enrichment runs (pg-boss). Thin: lib/properties runs the engine and writes the result.
import { QUEUES, workInParallel, type JobRun, type Queue } from "@/lib/queue";
import { runEnrichmentJob, type EnrichJob, type PropertiesDeps } from "@/lib/properties";

// Runs mostly wait on registers (each source has its own timeout and concurrency cap).
const WORKERS = 2;
const BATCH = 25;
/** Runs in flight per process at most (bench/pipeline's baseline uses the same). */
export const ENRICH_CONCURRENCY = WORKERS * BATCH;

export async function registerEnrichWorker(queue: Queue, deps: PropertiesDeps, pollSeconds: number, onRun?: (run: JobRun) => void) {
  // A retried batch re-runs finished runs too: their run number is stale and they do nothing.
  await workInParallel<EnrichJob>(queue, QUEUES.enrich, { workers: WORKERS, batchSize: BATCH, pollSeconds, onRun }, (job) => runEnrichmentJob(deps, job));
}
