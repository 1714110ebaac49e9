// Shared benchmark plumbing: fresh PostgreSQL databases, child servers, a keep-alive load
// generator with latency percentiles, RSS readings and result files.
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql, type SQL } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { checkLetters } from "@/lib/cadastral-reference";
import { openDatabase, rowsOf, schema, type Database } from "@/lib/db";
import { OPS_PATHS } from "@/lib/ops";
import { createApiKey } from "@/lib/api-keys";
import { decideLiveAccess } from "@/lib/partners/live";
import { createPartner } from "@/lib/partners";
import { loadConfig } from "@/lib/config";
import { createSources } from "@/lib/enrichment/sources";
import type { Sources } from "@/lib/enrichment/sources/types";
import { liveRegisters } from "@/lib/registers";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { messageIdOf } from "@/lib/webhooks/events";
import { generateSecret } from "@/lib/webhooks/secrets";
import { sendWebhook } from "@/lib/webhooks/send";
import { webhookHeaders } from "@/lib/webhooks/sign";
import { NEVER_MS } from "@/test/support/bounds";
import { createPostgresDatabase } from "@/test/support/database";
import { freePort } from "@/test/support/ports";
import { startNode, stopGroup } from "@/test/support/processes";
import { runnable } from "../scripts/build.mjs";
import { listen, type LocalServer } from "@/test/support/receiver";

export { freePort };

export const SERVER_URL = process.env.BENCH_DATABASE_SERVER ?? "postgres://postgres@127.0.0.1:5432/postgres";

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Each whole minute's rate (items final per second) from a timeline's (second, items final) points, and the
 * lowest later minute against the first (a batch whose steps cost more as it grows slows minute by minute).
 */
export function perMinute(timeline: [number, number][]): { minutes: number[]; lowestMinute: number | null } {
  const at = (second: number) => timeline.filter(([t]) => t <= second).at(-1)?.[1] ?? 0;
  const count = Math.floor((timeline.at(-1)?.[0] ?? 0) / 60);
  const minutes = Array.from({ length: count }, (_, m) => round((at(60 * (m + 1)) - at(60 * m)) / 60, 1));
  const lowestMinute = minutes.length > 1 ? round(Math.min(...minutes.slice(1)) / minutes[0]!, 2) : null;
  return { minutes, lowestMinute };
}

/** A benchmark's options by their defaults: a number's, a string's (lists too: `1,3`), or `false` (a flag). */
export type OptionDefaults = Record<string, number | string | boolean>;
export type OptionValues<T extends OptionDefaults> = {
  [K in keyof T]: T[K] extends number ? number : T[K] extends boolean ? boolean : string;
};

/**
 * `args` read as `--name value` (a flag alone) against `defaults`: an option given as a number must
 * be one. Throws what is wrong: an unknown option, a value missing, not a number.
 */
export function readOptions<T extends OptionDefaults>(defaults: T, args: string[]): OptionValues<T> {
  const { values } = parseArgs({
    args,
    options: Object.fromEntries(
      Object.entries(defaults).map(([name, value]) => [
        name,
        { type: typeof value === "boolean" ? "boolean" : "string" },
      ]),
    ) as Record<string, { type: "boolean" | "string" }>,
  });
  const read = Object.entries(defaults).map(([name, fallback]) => {
    const given = values[name];
    if (given === undefined || typeof fallback !== "number") return [name, given ?? fallback];
    const n = Number(given);
    if (typeof given !== "string" || given.trim() === "" || !Number.isFinite(n))
      throw new Error(`--${name} takes a number, not ${JSON.stringify(given)}`);
    return [name, n];
  });
  return Object.fromEntries(read) as OptionValues<T>;
}

/**
 * The script's options (`readOptions` on its command line); `--help` lists them with their defaults,
 * and a wrong one ends the script (exit 2) saying what is wrong, before anything starts.
 */
export function benchOptions<T extends OptionDefaults>(defaults: T): OptionValues<T> {
  const args = process.argv.slice(2);
  const usage = `Options (defaults):\n${Object.entries(defaults)
    .map(([name, value]) => `  --${name}${typeof value === "boolean" ? "" : ` ${value}`}`)
    .join("\n")}`;
  if (args.includes("--help")) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return readOptions(defaults, args);
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}

/** A new database on the benchmark's PostgreSQL server, dropped by `drop()`. */
export async function freshDatabase(prefix: string) {
  const settings = await databaseServer();
  if (settings.autovacuum !== "on")
    console.warn(
      `note: the benchmark's PostgreSQL runs with autovacuum ${settings.autovacuum} (PostgreSQL's default and the ` +
        "embedded server's is on): a long run's dead rows stay and slow it. BENCH_DATABASE_SERVER names another server.",
    );
  return createPostgresDatabase(SERVER_URL, prefix);
}

let serverSettings: Promise<Record<string, string>> | undefined;
/**
 * The benchmark's PostgreSQL server as its results record it (when the run used it): what decides how a long
 * run ages (autovacuum and its thresholds, checkpoints) beside its version.
 */
function databaseServer(): Promise<Record<string, string>> {
  serverSettings ??= (async () => {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: SERVER_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; setting: string }>(
        `select name, setting from pg_settings where name = any($1)`,
        [SERVER_SETTINGS],
      );
      return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
    } finally {
      await client.end();
    }
  })();
  return serverSettings;
}
const SERVER_SETTINGS = [
  "server_version",
  "autovacuum",
  "autovacuum_vacuum_scale_factor",
  "autovacuum_naptime",
  "shared_buffers",
  "max_wal_size",
  "checkpoint_timeout",
  "synchronous_commit",
];

/**
 * Starts a node entry point (TypeScript through tsx's loader) in a process group of its own
 * (test/support/processes) and waits until `readyUrl` answers 2xx: each server's own readiness
 * (`/api/ready`: database, migrations, queue), never a line of its log, whose wording may change.
 * BENCH_NODE_ARGS adds node options NODE_OPTIONS refuses, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
 */
export async function startServer(
  script: string,
  env: Record<string, string>,
  readyUrl: string,
  options: { args?: string[]; nodeArgs?: string[] } = {},
): Promise<ChildProcess> {
  const nodeArgs = [...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []), ...(options.nodeArgs ?? [])];
  // The server entry points run compiled, as npm start runs them.
  const child = startNode(await runnable(script), options.args, { env, nodeArgs });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const deadline = Date.now() + NEVER_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`);
    try {
      const res = await fetch(readyUrl);
      await res.arrayBuffer();
      if (res.ok) return child;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stopGroup(child);
      throw new Error(`server not ready (${readyUrl}):\n${log}`);
    }
    await sleep(250);
  }
}

/** A process and its descendants (next start forks a server child). */
function processTree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      const children = readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, "utf8").trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    } catch {}
  }
  return pids;
}

/** Resident set size (MiB) of a process and its descendants. */
export function rssMiB(pid: number): number {
  let kib = 0;
  for (const p of processTree(pid)) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) kib += Number(m[1]);
    } catch {}
  }
  return Math.round(kib / 1024);
}

/** CPU time (user + system, seconds) a process has used so far: less sensitive to a busy machine than wall time. */
export function cpuSeconds(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of a process and its descendants. */
export function treeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + cpuSeconds(p), 0);
}

/**
 * CPU seconds of each PostgreSQL server process on the machine, by pid; given a database, only its
 * backends (their title names it), so work others do on the same server is not counted (nor the
 * server's shared background writers: an undercount, the same for every target).
 */
export function postgresCpu(database?: string): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
      if (database && !readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(` ${database} `)) continue;
      cpu.set(Number(entry), cpuSeconds(Number(entry)));
    } catch {}
  }
  return cpu;
}

/** PostgreSQL CPU seconds since `before`; a backend that ended meanwhile is not counted (an undercount, never negative). */
export function postgresCpuSince(before: Map<number, number>, database?: string): number {
  let sum = 0;
  for (const [pid, seconds] of postgresCpu(database)) sum += seconds - (before.get(pid) ?? 0);
  return sum;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  p999: number;
  statuses: Record<string, number>;
  errorRate: number;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Closed-loop load: `concurrency` workers each send requests back to back for `seconds`
 * (or `rate` requests/s open-loop when given), over keep-alive connections.
 */
export async function load(options: {
  url: string;
  seconds: number;
  concurrency: number;
  rate?: number;
  request: (i: number) => { method: string; path: string; headers: Record<string, string>; body?: string };
  ok?: (status: number) => boolean;
  /** Stop after this many requests (closed loop only). */
  stopAfter?: number;
  /** Each answer's send time (ms since the epoch) and latency (ms), for timelines. */
  onLatency?: (sentAt: number, ms: number) => void;
  /** Each answer with its body (collected only when this is given). */
  onResponse?: (i: number, status: number, body: string) => void;
  /** Connection errors (codes) after which the same request is sent again, 100 ms later: a server being restarted. */
  retryOn?: string[];
  /** Gives up retrying a request after this long (ms). */
  retryForMs?: number;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const base = new URL(options.url);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let counter = 0;
  const end = Date.now() + options.seconds * 1000;
  const count = (key: string) => (statuses[key] = (statuses[key] ?? 0) + 1);
  const sendOnce = (i: number) =>
    new Promise<string | null>((resolve) => {
      const spec = options.request(i);
      const started = performance.now();
      const req = http.request(
        { host: base.hostname, port: base.port, method: spec.method, path: spec.path, headers: spec.headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          if (options.onResponse) res.on("data", (c: Buffer) => chunks.push(c));
          else res.resume();
          res.on("end", () => {
            const ms = performance.now() - started;
            latencies.push(ms);
            options.onLatency?.(performance.timeOrigin + started, ms);
            count(String(res.statusCode));
            options.onResponse?.(i, res.statusCode!, Buffer.concat(chunks).toString("utf8"));
            resolve(null);
          });
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      if (spec.body) req.write(spec.body);
      req.end();
    });
  const send = async () => {
    const i = counter++;
    const giveUpAt = Date.now() + (options.retryForMs ?? 60_000);
    for (;;) {
      const error = await sendOnce(i);
      if (error === null) return;
      if (!options.retryOn?.includes(error) || Date.now() > giveUpAt) return void count(`error:${error}`);
      count(`retried:${error}`);
      await sleep(100);
    }
  };
  const started = Date.now();
  // Open loop: the rate is over the time requests were being sent, not the wait for the last answers.
  let sendingSeconds: number | undefined;
  if (options.rate) {
    const inflight = new Set<Promise<void>>();
    const interval = 1000 / options.rate;
    let next = Date.now();
    while (Date.now() < end) {
      const p = send().finally(() => inflight.delete(p));
      inflight.add(p);
      next += interval;
      const wait = next - Date.now();
      if (wait > 0) await sleep(wait);
    }
    sendingSeconds = (Date.now() - started) / 1000;
    await Promise.all(inflight);
  } else {
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (Date.now() < end && (options.stopAfter === undefined || counter < options.stopAfter)) await send();
      }),
    );
  }
  const seconds = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const ok = options.ok ?? ((s) => s >= 200 && s < 300);
  const failures = Object.entries(statuses)
    .filter(([s]) => !s.startsWith("retried:") && !ok(Number(s)))
    .reduce((n, [, c]) => n + c, 0);
  const requests =
    latencies.length +
    Object.entries(statuses)
      .filter(([s]) => s.startsWith("error"))
      .reduce((n, [, c]) => n + c, 0);
  return {
    requests,
    seconds: round(seconds),
    perSecond: round(latencies.length / (sendingSeconds ?? seconds)),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    p999: round(percentile(latencies, 99.9)),
    statuses,
    errorRate: requests ? round(failures / requests, 4) : 0,
  };
}

/** Writes `<name>.json` under bench/results, or under BENCH_RESULTS_DIR (smoke runs keep the recorded figures). */
export async function writeResult(name: string, result: object): Promise<string> {
  const dir = process.env.BENCH_RESULTS_DIR ?? path.join(process.cwd(), "bench", "results");
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  await writeFile(
    file,
    JSON.stringify(
      { measuredAt: new Date().toISOString(), machine: machine(), database: await serverSettings, ...result },
      null,
      2,
    ) + "\n",
  );
  return file;
}

function machine() {
  const cpus = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.+)$/m)?.[1];
  return {
    node: process.version,
    cpu: cpus,
    cores: (readFileSync("/proc/cpuinfo", "utf8").match(/^processor/gm) ?? []).length,
  };
}

// ---- the durable pipeline end to end: API-only server, worker processes, a webhook receiver ----

export const CREATE_PATH = "/api/v1/partner-api/properties";
/** Readiness of every server of ours (lib/ops): 200 once the database, its migrations and the queue are up. */
export const READY_PATH = OPS_PATHS.ready;

/** Unique valid references, each on its own parcel, none of them a sandbox scenario. */
export function benchReference(i: number, tag = "YJ0624N"): string {
  const first18 = String(1_000_000 + (i % 9_000_000)).slice(-7) + tag + "0001";
  return first18 + checkLetters(first18);
}

const DNPRC = readFileSync(
  path.join("lib/enrichment/sources/cadastre/fixtures", "json-dnprc-20char-single-2749704YJ0624N0001DI.pretty.json"),
  "utf8",
);

/** Catastro's recorded one-unit answer, moved to `reference` and to `place` (INE codes and its name). */
export function dnprcAnswer(reference: string, place: { cp: string; cm: string; name: string }): string {
  const answer = JSON.parse(DNPRC);
  const bico = answer.consulta_dnprcResult.bico;
  bico.bi.idbi.rc = {
    pc1: reference.slice(0, 7),
    pc2: reference.slice(7, 14),
    car: reference.slice(14, 18),
    cc1: reference[18],
    cc2: reference[19],
  };
  bico.bi.dt = { ...bico.bi.dt, np: place.name, nm: place.name, loine: { cp: place.cp, cm: place.cm } };
  delete bico.finca.infgraf;
  return JSON.stringify(answer);
}

/** Least-squares slope of y over x. */
export function slope(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx ? points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx : 0;
}

interface Receipt {
  count: number;
  firstAt: number;
  propertyId: string | null;
}

/**
 * A local webhook receiver (node:http on 127.0.0.1) that verifies every signature against the
 * secret of the endpoint path it was sent to, counts receipts per `webhook-id` and can be taken
 * down (connections refused) and brought back on the same port.
 */
export class WebhookReceiver {
  readonly receipts = new Map<string, Receipt>();
  /** Distinct webhook-ids seen for each property: more than one is a duplicate event. */
  readonly idsByProperty = new Map<string, Set<string>>();
  requests = 0;
  badSignatures = 0;
  private readonly verifiers = new Map<string, Webhook>();
  private constructor(private readonly server: LocalServer) {}

  static async start(): Promise<WebhookReceiver> {
    let self: WebhookReceiver | undefined;
    self = new WebhookReceiver(await listen((req, body, res) => self!.handle(req, body.toString("utf8"), res)));
    return self;
  }

  get port(): number {
    return this.server.port;
  }

  url(pathname: string): string {
    return `http://127.0.0.1:${this.port}${pathname}`;
  }

  expect(pathname: string, secret: string) {
    this.verifiers.set(pathname, new Webhook(secret));
  }

  private handle(req: http.IncomingMessage, body: string, res: http.ServerResponse) {
    this.requests++;
    const id = String(req.headers["webhook-id"]);
    let propertyId: string | null = null;
    try {
      this.verifiers.get(req.url ?? "")!.verify(body, req.headers as Record<string, string>);
      propertyId = (JSON.parse(body) as { data?: { property_id?: string } }).data?.property_id ?? null;
    } catch {
      this.badSignatures++;
    }
    const seen = this.receipts.get(id);
    if (seen) seen.count++;
    else this.receipts.set(id, { count: 1, firstAt: Date.now(), propertyId });
    if (propertyId) {
      const ids = this.idsByProperty.get(propertyId) ?? new Set();
      this.idsByProperty.set(propertyId, ids.add(id));
    }
    res.writeHead(204).end();
  }

  /** Stops listening and drops open connections: senders see ECONNREFUSED until `up()`. */
  down(): Promise<void> {
    return this.server.down();
  }

  up(): Promise<void> {
    return this.server.up();
  }

  get duplicates(): number {
    let n = 0;
    for (const r of this.receipts.values()) n += r.count - 1;
    return n;
  }

  /** Time of the last first receipt (ms epoch): when the last distinct webhook arrived. */
  get lastFirstAt(): number {
    let t = 0;
    for (const r of this.receipts.values()) t = Math.max(t, r.firstAt);
    return t;
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

/** Properties, final ones, events, and deliveries still pending, so far. */
interface Progress {
  properties: number;
  final: number;
  events: number;
  pendingDeliveries: number;
}

export interface StackOptions {
  /** Database name prefix. */
  prefix: string;
  /** Partners (each with a test key and a webhook endpoint at the receiver). */
  partners: number;
  workers: number;
  /** Connection pool per process; several processes share PostgreSQL's max_connections. */
  poolSize: number;
  /** Environment for the API server and the workers, on top of the stack's own. */
  env?: Record<string, string>;
  /** Start no worker with the stack (a backlog is made first; then `startWorkers`). */
  idle?: boolean;
  /** The partners' keys and webhook endpoints: test (the sandbox answers) unless live (then no endpoints). */
  mode?: "test" | "live";
}

export interface Audit {
  properties: number;
  byStatus: Record<string, number>;
  /** Properties still `enriching`. */
  notFinal: number;
  events: number;
  /** Final properties without their property.enriched event. */
  finalWithoutEvent: number;
  deliveries: Record<string, number>;
  /** Deliveries whose attempt count differs from their rows in the attempt log. */
  attemptLogMismatches: number;
  received: { requests: number; distinct: number; duplicates: number; badSignatures: number };
  /** Events never received. */
  missing: number;
  /** webhook-ids received that no event carries. */
  unknown: number;
  /** Properties whose webhooks came with more than one webhook-id. */
  propertiesWithSeveralIds: number;
  /** pg-boss jobs by queue and state. */
  jobs: Record<string, number>;
}

/**
 * A fresh database with partners, keys and webhook endpoints; the lean API server with no workers
 * (`FINCA_WORKERS=0`) and `ENRICHMENT_DEADLINE_MS=0`, so every property goes through the durable
 * pipeline; `workers` worker processes (scripts/worker.ts); one local receiver for all endpoints.
 */
export class PipelineStack {
  api: ChildProcess | null = null;
  readonly workers: (ChildProcess | null)[];
  private constructor(
    readonly options: StackOptions,
    readonly db: { url: string; drop(): Promise<void> },
    readonly database: Database,
    readonly keys: string[],
    readonly receiver: WebhookReceiver,
    readonly port: number,
  ) {
    this.workers = Array.from({ length: options.workers }, () => null);
  }

  static async start(options: StackOptions): Promise<PipelineStack> {
    const db = await freshDatabase(options.prefix);
    let database: Database | undefined;
    let stack: PipelineStack | undefined;
    const receiver = await WebhookReceiver.start();
    try {
      const mode = options.mode ?? "test";
      const { keys, partnerIds } = await seedPartnerKeys(db.url, options.partners, mode);
      database = await openDatabase({ url: db.url, postgres: { poolSize: 4 } });
      // Live endpoints must use https: a live stack's partners have none, so it sends no webhook.
      for (const [i, partnerId] of mode === "live" ? [] : partnerIds.entries()) {
        const { secret } = await createEndpoint(
          database.db,
          { partnerId, mode },
          { url: receiver.url(`/hooks/${i}`) },
          { allowPrivate: true, maxEndpoints: 20 },
        );
        receiver.expect(`/hooks/${i}`, secret);
      }
      stack = new PipelineStack(options, db, database, keys, receiver, await freePort());
      await stack.startApi();
      if (!options.idle) await stack.startWorkers();
      return stack;
    } catch (error) {
      if (stack) await stack.stop();
      else {
        await receiver.close();
        await database?.close();
        await db.drop();
      }
      throw error;
    }
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private env(): Record<string, string> {
    return {
      DATABASE_URL: this.db.url,
      DATABASE_POOL_SIZE: String(this.options.poolSize),
      AUTH_SECRET: "bench",
      SANDBOX_LATENCY_MS: "50",
      ENRICHMENT_DEADLINE_MS: "0",
      FINCA_WEBHOOKS_ALLOW_PRIVATE: "1",
      ...this.options.env,
    };
  }

  async startApi(): Promise<void> {
    const env = { ...this.env(), PORT: String(this.port), FINCA_WORKERS: "0" };
    this.api = await startServer("scripts/serve-api.ts", env, `${this.url}${READY_PATH}`);
  }

  /** Every worker process, side by side. */
  async startWorkers(): Promise<void> {
    // Settled, not all: a worker failing to start must not leave the others starting unseen.
    const started = await Promise.allSettled(this.workers.map((_, i) => this.startWorker(i)));
    const failed = started.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  }

  /** A worker process, ready once its own operators' port says so (WORKER_OPS_PORT's `/api/ready`). */
  async startWorker(i: number): Promise<void> {
    const port = await freePort();
    const env = { ...this.env(), WORKER_OPS_PORT: String(port) };
    this.workers[i] = await startServer("scripts/worker.ts", env, `http://127.0.0.1:${port}${READY_PATH}`);
  }

  /** A create of the i-th bench reference, with the keys round-robin. */
  createRequest = (i: number) => ({
    method: "POST",
    path: CREATE_PATH,
    headers: { "Content-Type": "application/json", "X-API-Key": this.keys[i % this.keys.length]! },
    body: JSON.stringify({ cadastral_reference: benchReference(i) }),
  });

  private async rows<T>(query: SQL): Promise<T[]> {
    return rowsOf<T>(await this.database.db.execute(query));
  }

  async progress(): Promise<Progress> {
    const d = schema.webhookDeliveries;
    const [row] = await this.rows<Progress>(sql`
      select (select count(*)::int from properties) as properties,
             (select count(*)::int from properties where status <> 'enriching') as final,
             (select count(*)::int from events where type = 'property.enriched') as events,
             (select count(*)::int from ${d} where ${d.status} = 'pending') as "pendingDeliveries"`);
    return row!;
  }

  /** Progress once a second since the stack started settling: [s, properties, final, distinct webhooks received]. */
  readonly timeline: [number, number, number, number][] = [];

  /**
   * Polls until `load` (the creates) has ended, every property is final and every event was
   * received and recorded as delivered, or `timeoutMs`; calls `onTick` on each poll (chaos actions). Returns when the last
   * property became final and when the last webhook arrived (ms epoch, or null on timeout).
   */
  async settle<T>(load: Promise<T>, timeoutMs: number, onTick?: (p: Progress) => Promise<void> | void) {
    const started = Date.now();
    const deadline = started + timeoutMs;
    let loaded = false;
    void load.then(() => (loaded = true));
    let finalAt: number | null = null;
    let receivedAt: number | null = null;
    while (Date.now() < deadline) {
      const p = await this.progress();
      await onTick?.(p);
      const t = Math.floor((Date.now() - started) / 1000);
      if (this.timeline.at(-1)?.[0] !== t) this.timeline.push([t, p.properties, p.final, this.receiver.receipts.size]);
      if (!loaded || p.final < p.properties) finalAt = null;
      else finalAt ??= Date.now();
      // Received is not yet settled: a worker records a delivery's success just after its receipt.
      const received = this.receiver.receipts.size >= p.events && p.events === p.final && !p.pendingDeliveries;
      if (finalAt !== null && received) {
        receivedAt = this.receiver.lastFirstAt;
        break;
      }
      await sleep(250);
    }
    return { load: await load, finalAt, receivedAt };
  }

  /** The invariants, from the database and the receiver. */
  async audit(): Promise<Audit> {
    const byStatus = Object.fromEntries(
      (
        await this.rows<{ status: string; n: number }>(
          sql`select status, count(*)::int as n from properties group by status`,
        )
      ).map((r) => [r.status, r.n]),
    );
    const properties = Object.values(byStatus).reduce((a, b) => a + b, 0);
    // Every event sent (property.enriched, and a portfolio's batch.completed).
    const events = await this.rows<{ id: string; property_id: string }>(sql`select id, property_id from events`);
    const [{ n: finalWithoutEvent } = { n: 0 }] = await this.rows<{ n: number }>(sql`
      select count(*)::int as n from properties p where p.status <> 'enriching'
        and not exists (select 1 from events e where e.property_id = p.id and e.type = 'property.enriched')`);
    const deliveries = Object.fromEntries(
      (
        await this.rows<{ status: string; n: number }>(
          sql`select status, count(*)::int as n from webhook_deliveries group by status`,
        )
      ).map((r) => [r.status, r.n]),
    );
    const [{ n: attemptLogMismatches } = { n: 0 }] = await this.rows<{ n: number }>(sql`
      select count(*)::int as n from webhook_deliveries d
        where d.attempts <> (select count(*) from webhook_attempts a where a.delivery_id = d.id)`);
    const jobs = Object.fromEntries(
      (
        await this.rows<{ k: string; n: number }>(
          sql`select name || ':' || state as k, count(*)::int as n from pgboss.job group by 1 order by 1`,
        )
      ).map((r) => [r.k, r.n]),
    );
    const ids = new Set(events.map((e) => messageIdOf(e.id)));
    const r = this.receiver;
    return {
      properties,
      byStatus,
      notFinal: byStatus.enriching ?? 0,
      events: events.length,
      finalWithoutEvent,
      deliveries,
      attemptLogMismatches,
      received: {
        requests: r.requests,
        distinct: r.receipts.size,
        duplicates: r.duplicates,
        badSignatures: r.badSignatures,
      },
      missing: [...ids].filter((id) => !r.receipts.has(id)).length,
      unknown: [...r.receipts.keys()].filter((id) => !ids.has(id)).length,
      propertiesWithSeveralIds: [...r.idsByProperty.values()].filter((s) => s.size > 1).length,
      jobs,
    };
  }

  /** From an event's recording to its first receipt (ms): the delivery backlog as a partner sees it. */
  async eventToReceiptMs(): Promise<{ p50: number; p99: number; max: number }> {
    const rows = await this.rows<{ id: string; at: number }>(
      sql`select id::text, (extract(epoch from created_at) * 1000)::float8 as at from events`,
    );
    const latencies = rows.flatMap((e) => {
      const r = this.receiver.receipts.get(messageIdOf(e.id));
      return r ? [r.firstAt - e.at] : [];
    });
    latencies.sort((a, b) => a - b);
    return {
      p50: round(percentile(latencies, 50), 0),
      p99: round(percentile(latencies, 99), 0),
      max: round(latencies.at(-1) ?? 0, 0),
    };
  }

  /** CPU seconds used so far by the API server and by each worker (processes restarted start again at 0). */
  cpu(): { api: number; workers: number[] } {
    return {
      api: this.api ? cpuSeconds(this.api.pid!) : 0,
      workers: this.workers.map((w) => (w ? cpuSeconds(w.pid!) : 0)),
    };
  }

  /** RSS (MiB) of the API server and of each worker. */
  rss(): { api: number; workers: number[] } {
    return { api: this.api ? rssMiB(this.api.pid!) : 0, workers: this.workers.map((w) => (w ? rssMiB(w.pid!) : 0)) };
  }

  async stop(): Promise<void> {
    await Promise.all([this.api, ...this.workers].map((c) => (c ? stopGroup(c) : undefined)));
    await this.receiver.close();
    await this.database.close();
    await this.db.drop();
  }
}

/**
 * The pipeline's baseline: for `total` bench references, the same register calls a durable run
 * makes (cadastre, then certificate ∥ ITE; by default the sandbox at 50 ms, as test mode) and one
 * signed POST each (none with `webhooks: false`, as a live stack sends none), made directly from
 * `parallel` loops (the workers' concurrency).
 */
export async function directLoop(
  total: number,
  parallel: number,
  options: { sources?: Sources; mode?: "test" | "live"; reference?: (i: number) => string; webhooks?: boolean } = {},
) {
  const sources =
    options.sources ?? createSources(loadConfig({ SANDBOX_LATENCY_MS: "50" }), { live: liveRegisters({}) }).test;
  const reference = options.reference ?? benchReference;
  const receiver = await WebhookReceiver.start();
  const secret = generateSecret();
  receiver.expect("/baseline", secret);
  const url = receiver.url("/baseline");
  const started = Date.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < total) {
        const i = next++;
        const input = {
          reference: reference(i),
          mode: options.mode ?? "test",
          attempt: 1,
          signal: new AbortController().signal,
        };
        const cadastre = await sources.cadastre.lookup(input);
        const [certificate, ite] =
          cadastre.kind === "found"
            ? await Promise.all([
                sources.energyCertificate.lookup({ ...input, facts: cadastre.data }),
                sources.ite.lookup({ ...input, facts: cadastre.data }),
              ])
            : [null, null];
        const body = JSON.stringify({
          type: "property.enriched",
          timestamp: new Date().toISOString(),
          data: { property_id: String(i), cadastre, certificate, ite },
        });
        if (options.webhooks === false) {
          done++;
          continue;
        }
        await sendWebhook(url, webhookHeaders([secret], `msg_baseline_${i}`, new Date(), body), body, {
          timeoutMs: 15_000,
          allowPrivate: true,
          requireHttps: false,
        });
        done++;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  await receiver.close();
  return {
    parallel,
    seconds: round(seconds),
    perSecond: round((options.webhooks === false ? done : receiver.receipts.size) / seconds),
    received: options.webhooks === false ? done : receiver.receipts.size,
    badSignatures: receiver.badSignatures,
  };
}

/** Failed invariants of an audit (empty: all hold). Duplicates with the same webhook-id are allowed (at least once). */
export function violations(a: Audit): string[] {
  const out: string[] = [];
  if (a.notFinal) out.push(`${a.notFinal} properties not final`);
  if (a.finalWithoutEvent) out.push(`${a.finalWithoutEvent} final properties without property.enriched`);
  if (a.missing) out.push(`${a.missing} events never received`);
  if (a.unknown) out.push(`${a.unknown} webhook-ids received that no event carries`);
  if (a.propertiesWithSeveralIds)
    out.push(`${a.propertiesWithSeveralIds} properties announced under several webhook-ids`);
  if (a.received.badSignatures) out.push(`${a.received.badSignatures} bad signatures`);
  if (a.attemptLogMismatches)
    out.push(`${a.attemptLogMismatches} deliveries whose attempt count differs from the attempt log`);
  if (a.deliveries.failed || a.deliveries.pending)
    out.push(`deliveries not succeeded: ${JSON.stringify(a.deliveries)}`);
  return out;
}

/** `count` partners with one API key each in `mode` (benchmarks spread load so no partner hits its rate limit). */
export async function seedPartnerKeys(
  url: string,
  count: number,
  mode: "test" | "live" = "test",
): Promise<{ keys: string[]; partnerIds: string[] }> {
  const database = await openDatabase({ url });
  const keys: string[] = [];
  const partnerIds: string[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const partner = await createPartner(database.db, `Bench ${mode} ${i}`);
      // Live keys work once live mode is granted, as an operator grants it.
      if (mode === "live") await decideLiveAccess(database.db, partner.id, true, { waiting: false });
      partnerIds.push(partner.id);
      keys.push((await createApiKey(database.db, { partnerId: partner.id, mode, name: "bench" })).key);
    }
  } finally {
    await database.close();
  }
  return { keys, partnerIds };
}
