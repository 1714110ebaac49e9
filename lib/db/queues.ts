// pg-boss's queues are tables of this database (each queue a partition of pgboss.job, and a job of a
// queue that was never created has no table to go in): they are made with the schema, by the
// migration step of openDatabase, so whatever opens the database (server, workers, the operators'
// CLI, tests) can enqueue, whether or not a server ever started on it. lib/queue uses them.
// biome-ignore lint/suspicious/noExplicitAny: pg-boss's executor contract; rows are whatever its SQL selects.
export type SqlExecutor = { executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }> };

export const QUEUE_SCHEMA = "pgboss";

export const QUEUES = {
  /** Retries the unfinished enrichment sources of one property. */
  enrich: "enrich",
  /** Sends one webhook delivery (event × endpoint). */
  deliverWebhook: "deliver-webhook",
  /** Downloads and imports register index datasets (scheduled, or asked for by an admin). */
  refreshRegisters: "refresh-registers",
  /** Works a portfolio through one step at a time (lib/batches). */
  batch: "batch",
  /** Deletes request log rows past their retention (daily). */
  pruneRequestLogs: "prune-request-logs",
  /** Sends one email of the outbox (lib/email). */
  sendEmail: "send-email",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

// Crash retries only; our own schedules live in the job data.
export const QUEUE_RETRIES = { retryLimit: 20, retryDelay: 1, retryBackoff: true };

/**
 * pg-boss's own schema installed or brought up to its version, then every queue of `QUEUES` that is
 * missing created with the retries; a job's expiry is the running configuration's, which lib/queue's
 * startQueue sets on each start (until then pg-boss's default).
 */
export async function migrateQueues(executor: SqlExecutor): Promise<void> {
  const { default: PgBoss } = await import("pg-boss");
  // Started only to migrate: no maintenance, no schedules, no workers.
  const boss = new PgBoss({ db: executor, schema: QUEUE_SCHEMA, supervise: false, schedule: false });
  await boss.start();
  try {
    for (const name of Object.values(QUEUES)) await boss.createQueue(name, { name, ...QUEUE_RETRIES });
    // pg-boss fetches a queue's next jobs by priority, then age; its own index is by start time, so
    // each fetch sorted every waiting job: 73 ms a fetch behind a backlog of 100,000 deliveries
    // (bench/webhooks). In fetch order, a fetch reads its batch and stops. Made on the parent table,
    // so every queue's partition has it, those attached later too.
    await executor.executeSql(
      `create index if not exists job_fetch_order on ${QUEUE_SCHEMA}.job (name, priority desc, created_on, id)
        where state < 'active'`,
    );
  } finally {
    await boss.stop({ graceful: false });
  }
}
