// Durable jobs on pg-boss, in the same database as the data.
import PgBoss from "pg-boss";
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import plans from "pg-boss/src/plans.js";
import { executorFor, QUEUE_RETRIES, QUEUE_SCHEMA, type Database, type DbOrTx, type SqlExecutor } from "@/lib/db";
import type { Config } from "@/lib/config";
import type { QueueStat } from "@/lib/observability/metrics";
import { errorFields, type LogSink } from "@/lib/observability/logger";
import { JOB_DATA, QUEUES, type JobData, type QueueName } from "./registry";

export { JOB_DATA, QUEUES, type JobData, type QueueName } from "./registry";

export type Queue = PgBoss;

// pg-boss 10 records a worker's results without awaiting them (Manager#watch calls complete/fail
// and drops the promise): a database outage at that moment is an unhandled rejection, which ends
// the process. Those two statements never reject: the job stays active, expires and runs again
// (both handlers make a repeated run do nothing).
const RESULT_STATEMENTS = new Set([plans.completeJobs(QUEUE_SCHEMA), plans.failJobsById(QUEUE_SCHEMA)]);

function queueExecutor(executor: SqlExecutor, log: LogSink): SqlExecutor {
  return {
    executeSql: (text, values) =>
      executor.executeSql(text, values).catch((error: Error) => {
        if (!RESULT_STATEMENTS.has(text)) throw error;
        log.error(errorFields(error), "job results not recorded: the jobs will expire and run again");
        return { rows: [{ count: 0 }] };
      }),
  };
}

export async function startQueue(database: Database, config: Config, log: LogSink): Promise<Queue> {
  const boss = new PgBoss({
    // The data's own pool: one is enough.
    db: queueExecutor(database.executor, log),
    schema: QUEUE_SCHEMA,
    // A worker that dies mid-job: its job expires and is retried after this long.
    expireInSeconds: config.JOB_EXPIRE_SECONDS,
    maintenanceIntervalSeconds: config.JOB_MAINTENANCE_SECONDS,
    ...QUEUE_RETRIES,
  });
  boss.on("error", (error) => log.error(errorFields(error), "queue error"));
  await boss.start();
  // The queues were made with the database (lib/db/queues.ts); each queue's row carries every setting
  // of its jobs (jobsInsertSql relies on it), this configuration's from now on.
  for (const name of Object.values(QUEUES))
    await boss.updateQueue(name, { name, expireInSeconds: config.JOB_EXPIRE_SECONDS, ...QUEUE_RETRIES });
  return boss;
}

/**
 * Per queue: jobs due and waiting, scheduled for later, and running, and how long the oldest due
 * job has waited (seconds). pg-boss's own table, so its names are written out here.
 */
export async function queueStats(executor: SqlExecutor): Promise<QueueStat[]> {
  const { rows } = await executor.executeSql(
    `select name,
       count(*) filter (where state < 'active' and start_after <= now())::int as waiting,
       count(*) filter (where state < 'active' and start_after > now())::int as scheduled,
       count(*) filter (where state = 'active')::int as active,
       coalesce(extract(epoch from now() - min(start_after) filter (where state < 'active' and start_after <= now())), 0)::float8 as oldest
     from ${QUEUE_SCHEMA}.job where state <= 'active' group by name`,
    [],
  );
  return Object.values(QUEUES).map((queue) => {
    const row = rows.find((r: { name: string }) => r.name === queue);
    return {
      queue,
      waiting: row?.waiting ?? 0,
      scheduled: row?.scheduled ?? 0,
      active: row?.active ?? 0,
      oldestWaitingSeconds: row?.oldest ?? 0,
    };
  });
}

export interface EnqueueOptions {
  /** Run no earlier than this many seconds from now. */
  delaySeconds?: number;
  /** Jobs of higher priority are fetched first (default 0; portfolio work runs below single creates'). */
  priority?: number;
}

const startAfter = (options: EnqueueOptions) =>
  options.delaySeconds ? { startAfter: Math.max(1, Math.ceil(options.delaySeconds)) } : {};

/** Enqueues inside `tx`, so the job exists if and only if the transaction commits. */
export async function enqueue<Q extends QueueName>(
  queue: Queue,
  tx: DbOrTx,
  name: Q,
  data: JobData<Q>,
  options: EnqueueOptions = {},
) {
  return queue.send(name, data, {
    db: executorFor(tx),
    ...startAfter(options),
    ...(options.priority ? { priority: options.priority } : {}),
  });
}

/** A job to enqueue. */
export interface NewJob<Q extends QueueName> {
  data: JobData<Q>;
  options?: EnqueueOptions;
}

/** Jobs as pg-boss's `insert` takes them. */
const jobRecords = <Q extends QueueName>(name: Q, jobs: readonly NewJob<Q>[]) =>
  jobs.map(({ data, options = {} }) => ({
    name,
    data,
    ...(options.priority ? { priority: options.priority } : {}),
    // An interval, so the database's clock decides when.
    ...(options.delaySeconds ? { startAfter: `${Math.max(1, Math.ceil(options.delaySeconds))} seconds` } : {}),
  }));

/** Many jobs of one queue inside `tx`, in one statement (pg-boss's insert). */
export async function enqueueMany<Q extends QueueName>(queue: Queue, tx: DbOrTx, name: Q, jobs: readonly NewJob<Q>[]) {
  if (!jobs.length) return;
  await queue.insert(jobRecords(name, jobs), { db: executorFor(tx) });
}

/** The JSON of jobs for `jobsInsertSql`. */
export const jobsJson = <Q extends QueueName>(name: Q, jobs: readonly NewJob<Q>[]) =>
  JSON.stringify(jobRecords(name, jobs));

// pg-boss's `insert` statement, its parameters replaced: $1 (the jobs) by the caller's SQL, the
// defaults (expiry, retention, retries) by what pg-boss would send for this queue's settings.
// Expiry and retention are null, as the queues' rows carry them (startQueue); so pg-boss does too.
const INSERT_JOBS = plans.insertJobs(QUEUE_SCHEMA).split(/\$(\d)\b/);
const DEFAULTS: Record<string, string> = {
  "2": "null",
  "3": "null",
  "4": String(QUEUE_RETRIES.retryLimit),
  "5": String(QUEUE_RETRIES.retryDelay),
  "6": String(QUEUE_RETRIES.retryBackoff),
};

/**
 * A data-modifying statement inserting the jobs `jobs` evaluates to (JSON of `jobsJson`; null: none),
 * for a CTE of a statement that writes other rows: the job exists if and only if that statement
 * commits, at the cost of no round trip of its own. The statement is pg-boss's own `insert`.
 */
export function jobsInsertSql(jobs: SQL): SQL {
  return sql.join(
    INSERT_JOBS.map((part, i) => (i % 2 === 0 ? sql.raw(part) : part === "1" ? jobs : sql.raw(DEFAULTS[part]!))),
  );
}

/** One job run, for logs and metrics. Job data are ids and counters (never secrets), so they are logged. */
export interface JobRun {
  queue: QueueName;
  jobId: string;
  data: object;
  durationMs: number;
  /** What the run threw (the job is then retried by pg-boss), or null. */
  error: unknown;
}

interface WorkOptions {
  workers: number;
  batchSize: number;
  pollSeconds: number;
  onRun?: (run: JobRun) => void;
}

/**
 * Registers `workers` pg-boss workers for a queue, each taking up to `batchSize` jobs per poll. A
 * pg-boss worker waits a polling interval after every batch, which would cap throughput at workers
 * × batchSize per interval: after a full batch (a backlog) it fetches again at once instead. A batch
 * that throws is failed whole (pg-boss retries each of its jobs): handlers must make a retried job
 * that already finished do nothing. A job whose data is not its queue's shape is failed on its own
 * (reported as a run with the reason), so it never takes a batch of good jobs down with it.
 */
async function work<Q extends QueueName>(
  queue: Queue,
  name: Q,
  options: WorkOptions,
  handle: (jobs: Job<Q>[]) => Promise<void>,
) {
  const schema = JOB_DATA[name];
  for (let i = 0; i < options.workers; i++) {
    let id: string | undefined;
    id = await queue.work<object>(
      name,
      { batchSize: options.batchSize, pollingIntervalSeconds: options.pollSeconds },
      async (fetched) => {
        if (fetched.length >= options.batchSize && id) queue.notifyWorker(id);
        const jobs: Job<Q>[] = [];
        for (const job of fetched) {
          const parsed = schema.safeParse(job.data);
          if (parsed.success) jobs.push({ id: job.id, data: parsed.data });
          else {
            const error = new Error(`job data is not a ${name} job: ${z.prettifyError(parsed.error)}`);
            options.onRun?.({ queue: name, jobId: job.id, data: job.data, durationMs: 0, error });
            await queue.fail(name, job.id, { message: error.message });
          }
        }
        if (jobs.length) await handle(jobs);
      },
    );
  }
}

type Job<Q extends QueueName> = { id: string; data: JobData<Q> };

/**
 * Each job of a batch handled on its own, side by side. Every job runs to its end before a failure
 * is reported, so pg-boss never hands out again a job that is still running.
 */
export async function workInParallel<Q extends QueueName>(
  queue: Queue,
  name: Q,
  options: WorkOptions,
  handle: (data: JobData<Q>) => Promise<unknown>,
): Promise<void> {
  const run = async (job: Job<Q>) => {
    const startedAt = Date.now();
    try {
      await handle(job.data);
      options.onRun?.({ queue: name, jobId: job.id, data: job.data, durationMs: Date.now() - startedAt, error: null });
    } catch (error) {
      options.onRun?.({ queue: name, jobId: job.id, data: job.data, durationMs: Date.now() - startedAt, error });
      throw error;
    }
  };
  await work(queue, name, options, async (jobs) => {
    const results = await Promise.allSettled(jobs.map(run));
    const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failure) throw failure.reason;
  });
}

/** Each fetched batch of jobs handled as one (one read, one write for all); each job reported with the batch's time. */
export async function workInBatches<Q extends QueueName>(
  queue: Queue,
  name: Q,
  options: WorkOptions,
  handle: (data: JobData<Q>[]) => Promise<unknown>,
): Promise<void> {
  await work(queue, name, options, async (jobs) => {
    const startedAt = Date.now();
    let error: unknown = null;
    try {
      await handle(jobs.map((job) => job.data));
    } catch (thrown) {
      error = thrown;
      throw thrown;
    } finally {
      for (const job of jobs)
        options.onRun?.({ queue: name, jobId: job.id, data: job.data, durationMs: Date.now() - startedAt, error });
    }
  });
}
