// Outbox emails (pg-boss), one job per try. Thin: lib/email sends or holds, and schedules a retry.
import { QUEUES, workInParallel, type JobRun, type Queue } from "@/lib/queue";
import { sendQueuedEmail, type EmailDeps } from "@/lib/email";

// A message waits on the SMTP server; a few in flight per process are plenty.
const WORKERS = 1;
const BATCH = 5;

export async function registerSendEmailWorker(
  queue: Queue,
  deps: EmailDeps,
  pollSeconds: number,
  onRun?: (run: JobRun) => void,
) {
  // A retried job whose try was already written carries a stale attempt count and does nothing.
  await workInParallel(queue, QUEUES.sendEmail, { workers: WORKERS, batchSize: BATCH, pollSeconds, onRun }, (job) =>
    sendQueuedEmail(deps, job),
  );
}
