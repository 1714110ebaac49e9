// Durable enrichment runs (pg-boss). Thin: lib/properties runs the engine and writes the result.
import { QUEUES, workInBatches, type JobRun, type Queue } from "@/lib/queue";
import { runEnrichmentJobs, type PropertiesDeps } from "@/lib/properties";

// Runs mostly wait on registers (each source has its own timeout and concurrency cap).
const WORKERS = 2;
const BATCH = 25;
/** Runs in flight per process at most (bench/pipeline's baseline uses the same). */
export const ENRICH_CONCURRENCY = WORKERS * BATCH;

export async function registerEnrichWorker(
  queue: Queue,
  deps: PropertiesDeps,
  pollSeconds: number,
  onRun?: (run: JobRun) => void,
) {
  // Each batch is read and written as one; a retried batch re-runs finished runs too: their run
  // number is stale and they do nothing.
  await workInBatches(queue, QUEUES.enrich, { workers: WORKERS, batchSize: BATCH, pollSeconds, onRun }, (jobs) =>
    runEnrichmentJobs(deps, jobs),
  );
}
