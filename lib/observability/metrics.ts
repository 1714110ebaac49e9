// The process's Prometheus metrics (prom-client), on a registry of its own per App (tests run
// several Apps in one process). Each instance exposes its own; Prometheus adds `instance`. Queue
// depth is the shared database's, so every instance reports the same figure (take max() over them).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Seconds. Requests and register calls: a create's deadline is 1.5 s, a register's timeout 5 s. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2.5, 5, 10];
/** Seconds from an event to its receipt: seconds when all is well, hours while a receiver is down. */
const RECEIPT_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 36000];

export interface QueueStat {
  queue: string;
  /** Jobs due and waiting for a worker. */
  waiting: number;
  /** Jobs whose start is still in the future (scheduled retries). */
  scheduled: number;
  active: number;
  /** How long the oldest due job has been waiting, seconds (0 when none waits). */
  oldestWaitingSeconds: number;
}

export type BreakerState = "closed" | "half_open" | "open";
export const BREAKER_STATES: readonly BreakerState[] = ["closed", "half_open", "open"];

export function createMetrics(options: { queueStats: () => Promise<QueueStat[]> }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const metrics = {
    registry,
    httpRequests: new Counter({
      name: "finca_http_requests_total",
      help: "Partner-API requests answered, by operation (route), method and status.",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "finca_http_request_duration_seconds",
      help: "Partner-API request latency, by operation (route), method and status.",
      labelNames: ["route", "method", "status"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    creates: new Counter({
      name: "finca_property_creates_total",
      help: "POST /properties answers by mode and outcome (created, existing, or the error code).",
      labelNames: ["mode", "outcome"] as const,
      registers,
    }),
    enrichmentAttempts: new Counter({
      name: "finca_enrichment_attempts_total",
      help: "Enrichment attempts by source, provider, trigger and outcome.",
      labelNames: ["source", "provider", "trigger", "outcome"] as const,
      registers,
    }),
    registerDuration: new Histogram({
      name: "finca_register_request_duration_seconds",
      help: "Live register requests by provider and outcome (success, failure).",
      labelNames: ["provider", "outcome"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    breakerState: new Gauge({
      name: "finca_register_breaker_state",
      help: "A live register's circuit breaker: 1 for its current state (closed, half_open, open), 0 for the others.",
      labelNames: ["provider", "state"] as const,
      registers,
    }),
    breakerTransitions: new Counter({
      name: "finca_register_breaker_transitions_total",
      help: "Circuit-breaker state changes, by provider and the state entered.",
      labelNames: ["provider", "state"] as const,
      registers,
    }),
    breakerRejections: new Counter({
      name: "finca_register_breaker_rejections_total",
      help: "Register requests not made because the breaker was open (answered register_unavailable).",
      labelNames: ["provider"] as const,
      registers,
    }),
    webhookDeliveries: new Counter({
      name: "finca_webhook_deliveries_total",
      help: "Webhook delivery attempts by outcome (succeeded, retry, failed).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    webhookReceipt: new Histogram({
      name: "finca_webhook_event_to_receipt_seconds",
      help: "From an event's creation to its delivery's successful receipt.",
      buckets: RECEIPT_BUCKETS,
      registers,
    }),
    rateLimitRejections: new Counter({
      name: "finca_rate_limit_rejections_total",
      help: "Writes refused with 429, by mode.",
      labelNames: ["mode"] as const,
      registers,
    }),
    rateLimiterUnavailable: new Counter({
      name: "finca_rate_limiter_unavailable_total",
      help: "Writes refused with 503 because the limiter's store (Upstash) did not answer.",
      registers,
    }),
    requestLogRows: new Counter({
      name: "finca_request_log_rows_total",
      help: "Request log rows by outcome (written; dropped: queue full; failed: the database failed the insert; refused: the database refused this row for its content, the other rows of its insert written; unauthenticated: no row, as no key authenticated the request).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    jobRuns: new Counter({
      name: "finca_job_runs_total",
      help: "Job runs by queue and outcome (completed, failed).",
      labelNames: ["queue", "outcome"] as const,
      registers,
    }),
    setBreakerState(provider: string, state: BreakerState) {
      for (const s of BREAKER_STATES) metrics.breakerState.set({ provider, state: s }, s === state ? 1 : 0);
    },
  };
  // Read when scraped, once for both families (prom-client collects them side by side). A database
  // that does not answer leaves both without samples (the scrape still answers, and `absent()`
  // alerts on it) rather than failing the whole scrape.
  let reading: Promise<QueueStat[]> | null = null;
  const read = () =>
    (reading ??= options
      .queueStats()
      .catch(() => [])
      .finally(() => setImmediate(() => (reading = null))));
  new Gauge({
    name: "finca_queue_jobs",
    help: "Jobs per queue and state (waiting: due, no worker yet; scheduled: due later; active).",
    labelNames: ["queue", "state"] as const,
    registers,
    async collect() {
      this.reset();
      for (const s of await read())
        for (const state of ["waiting", "scheduled", "active"] as const) this.set({ queue: s.queue, state }, s[state]);
    },
  });
  new Gauge({
    name: "finca_queue_oldest_waiting_seconds",
    help: "Age of the oldest due job still waiting, per queue.",
    labelNames: ["queue"] as const,
    registers,
    async collect() {
      this.reset();
      for (const s of await read()) this.set({ queue: s.queue }, s.oldestWaitingSeconds);
    },
  });
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;
