// Logs, metrics and register breakers of one App, and the hooks through which the layers below tell
// them what happened: each answered request (lib/partner-api's onRequest), each enrichment run's
// attempts, each webhook delivery attempt, each job run, each breaker's state change.
import type { Config } from "@/lib/config";
import { pendingMigrations, type Database } from "@/lib/db";
import type { Mode } from "@/lib/domain";
import type { AttemptRecord } from "@/lib/enrichment/engine";
import { createBreakers, type RegisterBreakers } from "@/lib/enrichment/sources/breaker";
import { errorFields, flatLogger, type Logger } from "@/lib/observability/logger";
import { createMetrics, type Metrics } from "@/lib/observability/metrics";
import type { ReadinessCheck } from "@/lib/ops";
import type { RequestRecord } from "@/lib/partner-api/operation";
import { queueStats, type JobRun, type Queue } from "@/lib/queue";
import { liveProviders } from "@/lib/registers";
import type { DeliveryAttemptRecord } from "@/lib/webhooks/deliver";
import { sql } from "drizzle-orm";

export interface Observability {
  logger: Logger;
  metrics: Metrics;
  breakers: RegisterBreakers;
  onRequest(record: RequestRecord): void;
  onAttempts(attempts: readonly AttemptRecord[], mode: Mode): void;
  onAttempt(attempt: DeliveryAttemptRecord): void;
  onJobRun(run: JobRun): void;
}

/** `outcome` label of a create: created (201), existing (200, a repeat), else the error code. */
function createOutcome(record: RequestRecord): string {
  return record.status === 201
    ? "created"
    : record.status === 200
      ? "existing"
      : (record.errorCode ?? String(record.status));
}

function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(reject, ms, new Error(`no answer within ${ms} ms`)))),
  ]).finally(() => clearTimeout(timer));
}

export function createObservability(config: Config, database: Database, logger: Logger): Observability {
  const metrics = createMetrics({ queueStats: () => bounded(queueStats(database.executor), config.READY_TIMEOUT_MS) });
  // The live registers (the region table's) are known before any is asked: their breakers report
  // `closed` from the start.
  for (const provider of liveProviders()) metrics.setBreakerState(provider, "closed");
  const breakers = createBreakers(
    {
      errorPercent: config.REGISTER_BREAKER_ERROR_PERCENT,
      minRequests: config.REGISTER_BREAKER_MIN_REQUESTS,
      windowMs: config.REGISTER_BREAKER_WINDOW_SECONDS * 1000,
      cooldownMs: config.REGISTER_BREAKER_COOLDOWN_SECONDS * 1000,
    },
    {
      state(provider, state) {
        logger[state === "open" ? "warn" : "info"]({ provider, state }, "register breaker");
        metrics.setBreakerState(provider, state);
        metrics.breakerTransitions.inc({ provider, state });
      },
      request: (provider, ok, ms) =>
        metrics.registerDuration.observe({ provider, outcome: ok ? "success" : "failure" }, ms / 1000),
      rejected: (provider) => metrics.breakerRejections.inc({ provider }),
    },
  );
  // The request line's fields are strings, numbers and nulls (RequestRecord's).
  const requestLines = flatLogger(logger);
  return {
    logger,
    metrics,
    breakers,
    onRequest(record) {
      const route = record.operationId ?? "unmatched";
      const { at: _at, operationId: _id, keyId: _key, detail: _detail, ...fields } = record;
      requestLines[record.status >= 500 ? "error" : "info"]({ ...fields, route }, "request");
      const labels = { route, method: record.method, status: String(record.status) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, record.durationMs / 1000);
      if (record.operationId === "createProperty" && record.mode)
        metrics.creates.inc({ mode: record.mode, outcome: createOutcome(record) });
      if (record.errorCode === "rate_limited" && record.mode) metrics.rateLimitRejections.inc({ mode: record.mode });
    },
    onAttempts(attempts, mode) {
      for (const a of attempts) {
        metrics.enrichmentAttempts.inc({
          source: a.source,
          provider: a.provider ?? "none",
          trigger: a.trigger,
          outcome: a.outcome,
        });
        logger.debug(
          {
            mode,
            source: a.source,
            provider: a.provider,
            attempt: a.attempt,
            trigger: a.trigger,
            outcome: a.outcome,
            error: a.error,
            durationMs: a.durationMs,
          },
          "enrichment attempt",
        );
      }
    },
    onAttempt(attempt) {
      logger[attempt.outcome === "succeeded" ? "info" : "warn"](attempt, "webhook delivery attempt");
      metrics.webhookDeliveries.inc({ outcome: attempt.outcome });
      if (attempt.outcome === "succeeded") metrics.webhookReceipt.observe(attempt.sinceEventMs / 1000);
    },
    onJobRun(run) {
      const outcome = run.error === null ? "completed" : "failed";
      const fields = { queue: run.queue, jobId: run.jobId, ...run.data, durationMs: run.durationMs, outcome };
      if (run.error === null) logger.info(fields, "job run");
      else logger.error({ ...fields, ...errorFields(run.error) }, "job run");
      metrics.jobRuns.inc({ queue: run.queue, outcome });
    },
  };
}

/** What `/api/ready` checks: no shutdown under way, the database answers, every migration is applied, the queue runs. */
export function readinessChecks(deps: {
  database: Database;
  queueRunning(): boolean;
  shuttingDown(): boolean;
}): ReadinessCheck[] {
  return [
    { name: "shutdown", failure: "the instance is shutting down", check: async () => !deps.shuttingDown() },
    {
      name: "database",
      failure: "the database does not answer",
      check: async () => (await deps.database.db.execute(sql`select 1`), true),
    },
    {
      name: "migrations",
      failure: "database migrations are not all applied",
      check: async () => (await pendingMigrations(deps.database.db)) === 0,
    },
    { name: "queue", failure: "the job queue is not running", check: async () => deps.queueRunning() },
  ];
}

/** Whether the queue runs: from its start until it stops (or is being stopped, by `stopping`). */
export function queueState(queue: Queue): { running(): boolean; stopping(): void } {
  let running = true;
  queue.on("stopped", () => (running = false));
  return { running: () => running, stopping: () => void (running = false) };
}
