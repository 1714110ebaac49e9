// Portfolio steps (pg-boss). Thin: lib/batches registers the next items and settles the batch.
import { runBatchStep, type BatchesDeps } from "@/lib/batches";
import { QUEUES, workInParallel, type JobRun, type Queue } from "@/lib/queue";

// Steps of different batches run side by side; one step is one short transaction.
const WORKERS = 1;
const BATCH = 4;

export async function registerBatchWorker(
  queue: Queue,
  deps: BatchesDeps,
  pollSeconds: number,
  onRun?: (run: JobRun) => void,
) {
  // A retried step that already ran carries a stale step number and does nothing.
  await workInParallel(queue, QUEUES.batch, { workers: WORKERS, batchSize: BATCH, pollSeconds, onRun }, (job) =>
    runBatchStep(deps, job),
  );
}
