// Every tunable of the service, read once from the environment with documented defaults
// (docs/operations.md, "Configuration", which test/docs.test.ts holds to SETTINGS).
import { availableParallelism } from "node:os";
import { z } from "zod";

const seconds = z
  .string()
  .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, "comma-separated seconds")
  .transform((s) => s.split(",").map(Number));

const flag = z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");

/** `dataset=url` pairs separated by spaces; a dataset named several times is read from all its files. */
const datasetUrls = z
  .string()
  .transform((s) => s.split(/\s+/).filter(Boolean))
  .pipe(z.array(z.string().regex(/^[a-z0-9-]+=https?:\/\/\S+$/, "dataset=url pairs separated by spaces")))
  .transform((pairs) =>
    pairs.map((pair) => ({ dataset: pair.slice(0, pair.indexOf("=")), url: pair.slice(pair.indexOf("=") + 1) })),
  );

/** `register=n` pairs separated by commas or spaces: requests per second the workers send to it. */
const registerRates = z
  .string()
  .transform((s) => s.split(/[\s,]+/).filter(Boolean))
  .pipe(z.array(z.string().regex(/^[a-z0-9-]+=\d+(\.\d+)?$/, "register=n pairs (requests per second)")))
  .transform((pairs) =>
    Object.fromEntries(
      pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), Number(pair.slice(pair.indexOf("=") + 1))]),
    ),
  );

const EnvSchema = z.object({
  /**
   * Where partners reach this deployment (e.g. `https://api.finca.es`): the OpenAPI document's absolute
   * server and links. Unset, the document GET /openapi.json serves takes the origin it was asked on.
   */
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .transform((u) => u.replace(/\/+$/, ""))
    .optional(),
  /**
   * The partner support address the OpenAPI document names (its `info.contact`). Unset, it names the
   * RFC 2142 (§3) customer-service mailbox `support@<host>` of the host it is placed on (PUBLIC_BASE_URL's,
   * else the one it was asked on), which that domain should then receive; a host with no domain
   * (localhost, an IP address) gets none.
   */
  SUPPORT_EMAIL: z.email().optional(),
  /**
   * Where email goes (`smtp://user:pass@host:587`, `smtps://…:465`; nodemailer's URL form). Unset:
   * every message is held in the outbox, which operators read in the console (Outbox).
   */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** The sender of every email. */
  MAIL_FROM: z.string().min(3).default("Finca <no-reply@localhost>"),
  /** Delays (s) before each new try of an email the SMTP server did not take; after the last, it fails. */
  EMAIL_RETRY_SCHEDULE: seconds.default([30, 120, 600, 1800, 7200]),
  /** How long an emailed password reset link works (once). */
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  /** Password reset requests per email address and hour (answered alike whether or not the account exists). */
  PASSWORD_RESETS_PER_EMAIL: z.coerce.number().int().min(1).default(3),
  /** Password reset requests per client address and hour (the address as SIGN_UPS_PER_HOUR reads it). */
  PASSWORD_RESETS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  /** The HTTP port (unset: npm start's 3000, npm run api's 4000); not a port is a refused start, not port 0. */
  PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  ENRICHMENT_DEADLINE_MS: z.coerce.number().int().min(0).max(60_000).default(1500),
  /** Delays (s) before each retry of an unfinished source, live mode; the last one is the give-up point. */
  ENRICHMENT_RETRY_SCHEDULE: seconds.default([10, 60, 300, 1800, 7200, 21600]),
  /** The same for test-mode (sandbox) properties: compressed so scenarios finish within seconds. */
  ENRICHMENT_RETRY_SCHEDULE_TEST: seconds.default([1, 2, 4, 8]),
  /** Fraction of each delay added or removed at random, so retries of many properties spread out. */
  ENRICHMENT_RETRY_JITTER: z.coerce.number().min(0).max(1).default(0.2),
  /** Standard Webhooks retry schedule (s) after a failed attempt, per the contract. */
  WEBHOOK_RETRY_SCHEDULE: seconds.default([5, 300, 1800, 7200, 18000, 36000, 36000]),
  WEBHOOK_RETRY_SCHEDULE_TEST: seconds.default([1, 2, 4, 8, 16, 32, 64]),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /** An endpoint failing this long (no success since its first failure) has its organisation emailed, once per run of failures. */
  WEBHOOK_FAILING_NOTICE_HOURS: z.coerce.number().min(1).default(24),
  /** ...and is disabled after this many days of it (as Stripe and Svix do); its owners are emailed. */
  WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().int().min(1).default(5),
  /** Endpoints one partner may have per mode (each create fans out to all of them). */
  WEBHOOK_MAX_ENDPOINTS: z.coerce.number().int().min(1).default(20),
  /** Deliveries of one partner in flight at once per worker process; the rest wait up to a second for a slot, then go back on the queue, so one partner's slow or failing receivers cannot take every slot. */
  WEBHOOK_PARTNER_CONCURRENCY: z.coerce.number().int().min(1).default(10),
  /** An answer slower than this halves the endpoint's deliveries in flight, as a timeout or a 429/5xx does. */
  WEBHOOK_LATENCY_TARGET_MS: z.coerce.number().int().min(10).max(600_000).default(5000),
  FINCA_WEBHOOKS_ALLOW_PRIVATE: flag.default(false),
  /** Run the pg-boss workers in this process. */
  FINCA_WORKERS: flag.default(true),
  /**
   * `npm start`'s server runs its workers (FINCA_WORKERS) in a child process of its own, so a
   * portfolio's steps never hold the event loop that serves the portal and the API; 0 runs them in
   * the server's own process.
   */
  FINCA_WORKER_PROCESS: flag.default(true),
  /** Seconds after which a job whose worker died is handed to another worker. */
  JOB_EXPIRE_SECONDS: z.coerce.number().int().min(1).max(86_399).default(60),
  JOB_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).max(86_399).default(15),
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(3600).default(1),
  RATE_LIMIT_WRITES: z.coerce.number().int().min(1).default(100),
  /** Proxies in front of the portal that append to X-Forwarded-For; 0 = the header is ignored. */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Password checks (argon2) run at once in this process; more wait, beyond the queue they are
   * refused. One core fewer than the machine has (at least one), so a sign-in flood leaves a core to
   * the API: with as many checks as cores, a flood raised the API's p50 from 13 to 165 ms.
   */
  PASSWORD_CHECKS_CONCURRENT: z.coerce
    .number()
    .int()
    .min(1)
    .default(Math.max(1, availableParallelism() - 1)),
  PASSWORD_CHECKS_QUEUE: z.coerce.number().int().min(0).default(32),
  /**
   * New organisations per client address and hour: the trusted proxies' entry, else the socket's as
   * `npm start`'s front door saw it (all clients together under `next start` alone).
   */
  SIGN_UPS_PER_HOUR: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  UPSTASH_REDIS_REST_URL: z.string().url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  UPSTASH_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(1000),
  /**
   * Socrata app token (dev.socrata.com) for downloads from Socrata portals: without one, calls share a
   * throttled pool. (The registers' own keys, base URLs among them, are their modules': lib/registers.)
   */
  SOCRATA_APP_TOKEN: z.string().min(1).optional(),
  /** Register index datasets refreshed on a schedule, from these URLs (`registers list` names the datasets). */
  REGISTER_URLS: datasetUrls.default([]),
  /** When configured datasets are refreshed (cron, UTC). */
  REGISTER_REFRESH_CRON: z
    .string()
    .regex(/^\S+( \S+){4}$/, "a 5-field cron expression")
    .default("30 3 * * 0"),
  /** Bound on one dataset file's download and import (bulk files are large). */
  REGISTER_DOWNLOAD_TIMEOUT_MS: z.coerce.number().int().min(1000).max(86_000_000).default(3_600_000),
  /** Bytes of one downloaded dataset file at most; a larger one fails its import (the previous copy stays). */
  REGISTER_MAX_DOWNLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(4 * 1024 ** 3),
  /** Register downloads over plain http and to private addresses (development and tests only). */
  FINCA_REGISTERS_ALLOW_PRIVATE: flag.default(false),
  /** An index copy whose as_of (the publisher's snapshot date) is older than this many days shows `stale`. */
  REGISTER_STALE_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
  /** Lasting column overrides, `<dataset>.json` each, applied to every import (docs/registers.md, "Column overrides"). */
  REGISTER_COLUMNS_DIR: z.string().min(1).default("register-columns"),
  /** pino's levels; `silent` logs nothing. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** `json` (one object a line) or `pretty` (colours, for people); default pretty only on a terminal. */
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  /**
   * JSON lines wait until this many bytes of them do, or a quarter second, then go out in one write
   * (pino-pretty's always at once). 0: a write per line. Below sonic-boom's largest write (16 KiB).
   */
  LOG_BUFFER_BYTES: z.coerce.number().int().min(0).max(16_383).default(4096),
  /**
   * How far V8 lets a server process's heap grow past what its last collection kept, in percent
   * (0: V8's own choice, which after a burst such as a 100,000-row upload let the heap reach four
   * times the live data and RSS pass 300 MiB; 50 keeps it near the live data for a few % more CPU).
   */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(1000).default(50),
  /** When set, GET /metrics wants `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(1).optional(),
  /** A worker-only process (scripts/worker.ts) serves /api/health, /api/ready and /metrics on this port. */
  WORKER_OPS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Each readiness check fails when it has not answered within this. */
  READY_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(2000),
  /** A live register's breaker opens when at least this share (%) of its requests in the window fail... */
  REGISTER_BREAKER_ERROR_PERCENT: z.coerce.number().min(1).max(100).default(50),
  /** ...and at least this many requests were made in the window. */
  REGISTER_BREAKER_MIN_REQUESTS: z.coerce.number().int().min(1).default(5),
  REGISTER_BREAKER_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** How long an open breaker asks nothing before one trial request. */
  REGISTER_BREAKER_COOLDOWN_SECONDS: z.coerce.number().min(0.1).max(86_400).default(30),
  /** Record every partner API request for the portal's Logs and admins' request-id look-up. */
  REQUEST_LOGS: flag.default(true),
  /** Request log rows older than this are pruned (daily job). */
  REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Security history (audit) rows older than this are pruned (the daily retention job). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
  /** How often queued request log rows are written (a full batch of 500 is written at once). */
  REQUEST_LOG_FLUSH_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** `finca listen` sessions one partner may hold open at once (per server process). */
  LISTEN_MAX_SESSIONS: z.coerce.number().int().min(1).max(100).default(5),
  /** `finca listen` sessions of all partners together per server process (each holds a connection and polls). */
  LISTEN_MAX_TOTAL_SESSIONS: z.coerce.number().int().min(1).max(10_000).default(100),
  /**
   * Percent of LISTEN_MAX_TOTAL_SESSIONS that organisations without live access (free, test only) hold
   * together at most: the rest is kept for organisations with live access.
   */
  LISTEN_TEST_ONLY_PERCENT: z.coerce.number().int().min(0).max(100).default(50),
  /** How often a listen session looks for new events. */
  LISTEN_POLL_MS: z.coerce.number().int().min(50).max(10_000).default(500),
  /** How often a listen session checks that its key is still active (revoked or expired: it ends). */
  LISTEN_KEY_CHECK_MS: z.coerce.number().int().min(50).max(60_000).default(5000),
  /** A listen session's longest life; the CLI then reconnects, authenticating its key again. */
  LISTEN_MAX_SESSION_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** Rows of a CSV batch at most (a JSON body holds at most 10,000 items, per the contract). */
  BATCH_MAX_ITEMS: z.coerce.number().int().min(1).max(1_000_000).default(100_000),
  /** Bytes of a batch request body at most (CSV or JSON). */
  BATCH_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  /**
   * Bounds on one row of a batch file (CSV or workbook), so a file cannot make the reader hold or
   * work through one huge line: characters of a row, of one field, and fields of a row. Excel's own
   * cell holds at most 32,767 characters.
   */
  BATCH_MAX_ROW_CHARS: z.coerce.number().int().min(1024).default(65_536),
  BATCH_MAX_FIELD_CHARS: z.coerce.number().int().min(256).default(32_767),
  BATCH_MAX_COLUMNS: z.coerce.number().int().min(2).default(1000),
  /**
   * Workbook (XLSX) readers, each a worker thread, running at once per process: one core fewer than
   * the machine has (at least one), so reading workbooks always leaves a core to the API...
   */
  WORKBOOK_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .default(Math.max(1, availableParallelism() - 1)),
  /** ...and of one partner at once: another upload waits for none, it is refused (429) until the first is read. */
  WORKBOOK_WORKERS_PER_PARTNER: z.coerce.number().int().min(1).default(1),
  /**
   * CSV reader threads per process (a pool, kept between files): parsing runs off the event loop,
   * a partner's files one at a time; more files than threads wait their turn.
   */
  CSV_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .default(Math.max(1, availableParallelism() - 1)),
  /** Busy time one workbook's reader may take; past it the worker is ended and the workbook refused. */
  WORKBOOK_CPU_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  /** Batches one partner may have queued or running per mode; more is a 409. */
  BATCH_MAX_ACTIVE: z.coerce.number().int().min(1).default(5),
  /** Items of one batch registered and left enriching at once: batches of several partners take turns within this. */
  BATCH_WINDOW: z.coerce.number().int().min(1).default(1000),
  /**
   * Requests per second each live register may receive from us, shared by every process: durable
   * runs and single creates' inline lookups alike. Defaults below; pairs given here override them.
   */
  REGISTER_RATE_LIMITS: registerRates.default({}),
  /**
   * The share of each register's budget that durable runs (portfolios, retries) leave to single
   * creates, which come first anyway: a portfolio never takes a grant while a create waits for one.
   */
  REGISTER_INTERACTIVE_SHARE: z.coerce.number().min(0).max(0.9).default(0.2),
  SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** How long a test-mode `9100` cadastre answer takes on its first attempt. */
  SANDBOX_SLOW_MS: z.coerce.number().int().min(0).max(60_000).optional(),
});

export type Config = z.infer<typeof EnvSchema>;

/** The names of every setting read here: the documentation's table of settings is checked against them. */
export const SETTINGS = EnvSchema.keyof().options;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty variables mean "unset", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  // A link in an email must not take its host from a request (anyone can send any Host header).
  if (parsed.data.SMTP_URL && !parsed.data.PUBLIC_BASE_URL)
    throw new Error("Invalid configuration: SMTP_URL needs PUBLIC_BASE_URL, the origin the links in emails point to");
  return parsed.data;
}
