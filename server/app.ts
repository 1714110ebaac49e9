// The composition root: configuration, database, queue, rate limiter, registers, operator bootstrap
// and workers, wired once per process (or per test). lib/ receives these as narrow arguments.
import { loadConfig, type Config } from "@/lib/config";
import { defaultDatabaseOptions, openDatabase, type Database } from "@/lib/db";
import type { Mode } from "@/lib/domain";
import { startQueue } from "@/lib/queue";
import { databaseRateLimiter, upstashRateLimiter, type RateLimiter } from "@/lib/rate-limit";
import { gatedPasswords, type Passwords } from "@/lib/auth/password";
import { fileReaders } from "@/lib/batches";
import { deliverySlots, listenSlots } from "@/lib/webhooks/fair-share";
import { listenHub } from "@/lib/webhooks/listen";
import { createSources } from "@/lib/enrichment/sources";
import {
  liveRegisters,
  refreshPlan,
  registerBudgets,
  registerIndex,
  registerRates,
  registerSettings,
} from "@/lib/registers";
import type { Sources } from "@/lib/enrichment/sources/types";
import type { ApiDeps } from "@/lib/partner-api";
import type { DeliveryDeps } from "@/lib/webhooks/deliver";
import { createLogger, errorFields, type Logger } from "@/lib/observability/logger";
import { requestLogWriter } from "@/lib/request-logs";
import { smtpMailer, type Mailer } from "@/lib/email";
import type { RequestRecord } from "@/lib/partner-api/operation";
import { refreshExpirySeconds } from "@/jobs/refresh-registers";
import { bootstrap } from "./bootstrap";
import { createObservability, queueState, type Observability } from "./observability";
import { registerWorkers } from "./workers";

export interface App
  extends ApiDeps,
    DeliveryDeps,
    Pick<Observability, "logger" | "metrics" | "breakers" | "onJobRun"> {
  /** pino: the API's narrow logger too. */
  logger: Observability["logger"];
  config: Config;
  database: Database;
  /** From the queue's start until it stops or `close` begins (readiness). */
  queueRunning(): boolean;
  /** Password hashing and checks for public paths, capped per process. */
  passwords: Passwords;
  /** Sign-ups per client address (all clients together when the address is unknown). */
  signUps: RateLimiter;
  /** Password reset requests per email address, and per client address (an hour each). */
  resetsPerEmail: RateLimiter;
  resetsPerAddress: RateLimiter;
  /** SMTP_URL's server (nodemailer); null: every email is held in the outbox for operators. */
  mailer: Mailer | null;
  /** Readiness fails from now on: a shutdown has begun (the server still answers what it has). */
  beginShutdown(): void;
  shuttingDown(): boolean;
  /** Stops the workers (a job they run is finished or handed back), then closes the database. */
  close(): Promise<void>;
}

export interface AppOptions {
  config?: Config;
  database?: Database;
  sources?: Record<Mode, Sources>;
  /** Run pg-boss workers in this process (default: config FINCA_WORKERS). */
  workers?: boolean;
  env?: Record<string, string | undefined>;
  /** Where the App logs; default stdout at LOG_LEVEL. */
  logger?: Logger;
}

export async function createApp(options: AppOptions = {}): Promise<App> {
  const env = options.env ?? process.env;
  const config = options.config ?? loadConfig(env);
  // A dataset or register that does not exist stops the start before anything opens.
  refreshPlan(config.REGISTER_URLS);
  refreshExpirySeconds(config);
  registerRates(config.REGISTER_RATE_LIMITS);
  const settings = registerSettings(env);
  const logger =
    options.logger ??
    createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT, bufferBytes: config.LOG_BUFFER_BYTES });
  const onIdleError = (error: Error) => logger.error(errorFields(error), "an idle database connection failed");
  const database = options.database ?? (await openDatabase({ ...defaultDatabaseOptions(env), onIdleError }));
  const observability = createObservability(config, database, logger);
  if (config.FINCA_WEBHOOKS_ALLOW_PRIVATE && env.NODE_ENV === "production" && !env.CI) {
    observability.logger.warn(
      "FINCA_WEBHOOKS_ALLOW_PRIVATE is on: webhooks may reach private addresses. Development and tests only.",
    );
  }
  const queue = await startQueue(database, config, observability.logger);
  const queueRun = queueState(queue);
  let shuttingDown = false;
  const rateLimiter =
    config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN
      ? await upstashRateLimiter({
          url: config.UPSTASH_REDIS_REST_URL,
          token: config.UPSTASH_REDIS_REST_TOKEN,
          limit: config.RATE_LIMIT_WRITES,
          windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
          timeoutMs: config.UPSTASH_TIMEOUT_MS,
          onUnavailable(error) {
            observability.metrics.rateLimiterUnavailable.inc();
            observability.logger.warn(errorFields(error), "rate limiter (Upstash) unavailable: write refused with 503");
          },
        })
      : databaseRateLimiter(database.db, config.RATE_LIMIT_WRITES, config.RATE_LIMIT_WINDOW_SECONDS);
  // Live lookups ask the local register index first (lib/registers), then the live registries.
  const liveSources = () =>
    createSources(config, {
      live: liveRegisters(settings),
      index: registerIndex(database.db),
      breakers: observability.breakers,
      budget: registerBudgets(database.db, config.REGISTER_RATE_LIMITS, config.REGISTER_INTERACTIVE_SHARE),
    });
  const sources = options.sources ?? liveSources();
  const requestLog = requestLogWriter(database.db, {
    intervalMs: config.REQUEST_LOG_FLUSH_MS,
    batchSize: 500,
    // Rows hold bodies of up to 4 KiB: the queue is bounded by its rows' size too.
    maxQueued: 20_000,
    maxQueuedBytes: 32 * 1024 * 1024,
    onWritten: (rows) => observability.metrics.requestLogRows.inc({ outcome: "written" }, rows),
    onDropped: (rows) => observability.metrics.requestLogRows.inc({ outcome: "dropped" }, rows),
    onError(error, rows, refused) {
      observability.metrics.requestLogRows.inc({ outcome: refused ? "refused" : "failed" }, rows);
      observability.logger.warn({ ...errorFields(error), rows, refused }, "request log rows not written");
    },
  });
  const hub = listenHub(database.db, config.LISTEN_POLL_MS);
  const mailer = config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : null;
  const app: App = {
    ...observability,
    onRequest(record: RequestRecord) {
      observability.onRequest(record);
      if (!config.REQUEST_LOGS) return;
      // A row per request no key authenticated would let anyone fill the table (kept for days): counted only.
      if (record.partnerId === null) observability.metrics.requestLogRows.inc({ outcome: "unauthenticated" });
      else requestLog.record(requestLogEntry(record));
    },
    config,
    database,
    db: database.db,
    queue,
    rateLimiter,
    passwords: gatedPasswords(config.PASSWORD_CHECKS_CONCURRENT, config.PASSWORD_CHECKS_QUEUE),
    signUps: databaseRateLimiter(database.db, config.SIGN_UPS_PER_HOUR, 3600),
    resetsPerEmail: databaseRateLimiter(database.db, config.PASSWORD_RESETS_PER_EMAIL, 3600),
    resetsPerAddress: databaseRateLimiter(database.db, config.PASSWORD_RESETS_PER_ADDRESS, 3600),
    mailer,
    fileReaders: fileReaders(config),
    sourcesFor: (mode) => sources[mode],
    // Each endpoint starts at one delivery in flight and grows to the partner's share while its receiver keeps up.
    slots: deliverySlots(config.WEBHOOK_PARTNER_CONCURRENCY, {
      min: 1,
      max: config.WEBHOOK_PARTNER_CONCURRENCY,
      latencyTargetMs: config.WEBHOOK_LATENCY_TARGET_MS,
    }),
    listenSlots: listenSlots(
      config.LISTEN_MAX_SESSIONS,
      config.LISTEN_MAX_TOTAL_SESSIONS,
      Math.floor((config.LISTEN_MAX_TOTAL_SESSIONS * config.LISTEN_TEST_ONLY_PERCENT) / 100),
    ),
    listenHub: hub,
    queueRunning: queueRun.running,
    beginShutdown: () => void (shuttingDown = true),
    shuttingDown: () => shuttingDown,
    async close() {
      shuttingDown = true;
      queueRun.stopping();
      observability.breakers.shutdown();
      hub.close();
      await requestLog.close();
      await queue.stop({ graceful: true, wait: true, timeout: 10_000 });
      mailer?.close();
      await database.close();
    },
  };
  await bootstrap(app.db, env);
  if (options.workers ?? config.FINCA_WORKERS) await registerWorkers(app);
  return app;
}

/** What a request log row keeps of an answered request. */
function requestLogEntry(r: RequestRecord) {
  const detail = r.detail();
  return {
    requestId: r.requestId,
    partnerId: r.partnerId,
    mode: r.mode,
    keyId: r.keyId,
    keyVisibleStart: r.keyStart,
    method: r.method,
    path: r.path,
    status: r.status,
    errorCode: r.errorCode,
    durationMs: r.durationMs,
    at: r.at,
    query: detail.query,
    requestHeaders: detail.headers,
    requestBody: detail.body,
    problem: detail.problem,
    propertyId: detail.propertyId,
  };
}

const KEY = Symbol.for("finca.app");
type Holder = { [KEY]?: Promise<App> };

/**
 * The process's App. Kept on globalThis because Next.js may load this module in several bundles
 * (instrumentation, route handlers, pages): there must still be one pool and one queue. The first
 * call's options make it (npm start's server/main.ts calls first).
 */
export function getApp(options?: AppOptions): Promise<App> {
  const holder = globalThis as Holder;
  holder[KEY] ??= createApp(options).catch((error) => {
    delete holder[KEY];
    throw error;
  });
  return holder[KEY];
}
