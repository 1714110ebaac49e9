// bench/create: sustained create throughput and latency on PostgreSQL with many partners (so the
// rate limit is not the bottleneck), through `npm start`'s server, through the same handlers on a lean
// node:http server, and through a bare node:http server doing only the insert (the baseline).
// Load from wrk (apt-get install wrk), so the load generator takes little of the two cores.
//   npx tsx bench/create.ts [--seconds 20] [--warmup 3] [--concurrency 32] [--partners 1500]  (builds when stale)
//   npx tsx bench/create.ts --profile [--targets lean]    (each server under --cpu-prof: where the CPU goes)
//   --rounds N: every target up at once, measured N times each in turn (rotated): ratios per round, median and range.
//   --port N: each server in turn listens on N (a range given on a shared machine), else on a free port.
// Targets: next (`npm start`'s server), lean, lean-nologs (the lean server with REQUEST_LOGS=0: what
// request logging costs), lean-hooks (the lean server with Node's promise hooks on, as Next.js turns
// them on in `npm start`'s process: bench/async-hooks-on.mjs), upstash (the lean server with the write
// limit on Upstash: a local Redis behind an Upstash-compatible REST front), two-statements (the bare
// server making the API's key statement before the insert: the floor of a create's two round trips,
// which the goals are set against: lean ≥ 0.8 and next ≥ 0.75 of its throughput, server CPU per create
// ≤ 2× its), baseline.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inspect } from "node:util";
import {
  benchOptions,
  benchReference,
  CREATE_PATH,
  freePort,
  READY_PATH,
  freshDatabase,
  postgresCpu,
  postgresCpuSince,
  round,
  rssMiB,
  seedPartnerKeys,
  startServer,
  treeCpuSeconds,
  writeResult,
  type LoadResult,
} from "./lib";
import { stopGroup } from "@/test/support/processes";
import { startRedis, upstashFront } from "@/test/support/upstash";
import { wrk, type WrkRequest } from "./wrk";
import { profileClock, summarizeProfile } from "./profile";

const UPSTASH_TOKEN = "bench";
const TARGETS = ["next", "lean", "lean-nologs", "lean-hooks", "upstash", "two-statements", "baseline"] as const;
type Target = (typeof TARGETS)[number];

const values = benchOptions({
  seconds: 20,
  warmup: 3,
  concurrency: 32,
  partners: 1500,
  targets: TARGETS.join(","),
  profile: false,
  port: 0,
  rounds: 1,
});
const { seconds, warmup, concurrency, rounds } = values;
// With more than one round every target is up at once: one window a target to profile, and no one port for all.
if (rounds < 1 || (rounds > 1 && (values.profile || values.port))) {
  console.error("--rounds: 1 or more, and 1 with --profile or --port (more rounds run every target at once)");
  process.exit(2);
}
const partnerCount = values.partners;

// Enough distinct references for the fastest server we can expect over the run.
const MAX_RATE = 6000;

type Measured = LoadResult & {
  rssMiB: number;
  serverCpuMsPerRequest: number;
  postgresCpuMsPerRequest: number;
  upstashCpuMsPerRequest?: number;
};

/** Redis and its REST front for the upstash target, with the CPU seconds both have used. */
async function startUpstash() {
  const redis = await startRedis();
  const front = await upstashFront(redis.port, UPSTASH_TOKEN);
  return {
    front,
    // The front runs in this process, which does little else while wrk runs.
    cpu: () => treeCpuSeconds(redis.pid) + (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    async stop() {
      await front.close();
      await redis.stop();
    },
  };
}

/** A target's server on a database of its own, with its partners' keys. */
interface Running {
  url: string;
  pid: number;
  database: string;
  keys: string[];
  store?: () => number;
  stop(): Promise<void>;
}

async function startTarget(target: Target): Promise<Running> {
  const db = await freshDatabase("finca_bench");
  let upstash: Awaited<ReturnType<typeof startUpstash>> | null = null;
  try {
    const { keys, partnerIds } = await seedPartnerKeys(db.url, partnerCount);
    const port = values.port || (await freePort());
    const env = {
      DATABASE_URL: db.url,
      PORT: String(port),
      FINCA_WORKERS: "0",
      AUTH_SECRET: "bench",
      AUTH_TRUST_HOST: "true",
      BENCH_PARTNER_ID: partnerIds[0]!,
      REQUEST_LOGS: target === "lean-nologs" ? "0" : "1",
      BENCH_BASELINE: target === "two-statements" ? target : "insert",
    };
    // The write limit on Upstash: a real Redis behind the REST front (test/support/upstash.ts), here.
    upstash = target === "upstash" ? await startUpstash() : null;
    if (upstash)
      Object.assign(env, { UPSTASH_REDIS_REST_URL: upstash.front.url, UPSTASH_REDIS_REST_TOKEN: UPSTASH_TOKEN });
    const ready = `http://127.0.0.1:${port}${READY_PATH}`;
    // Node itself (no npx wrapper), so --cpu-prof profiles the server process.
    const nodeArgs = [
      ...(values.profile ? [`--cpu-prof`, `--cpu-prof-dir=${path.join(profileDir, target)}`] : []),
      ...(target === "lean-hooks" ? ["--import", path.resolve("bench/async-hooks-on.mjs")] : []),
    ];
    const server =
      target === "next"
        ? await startServer("server/main.ts", env, ready, { nodeArgs })
        : target === "lean" || target === "lean-nologs" || target === "lean-hooks" || target === "upstash"
          ? await startServer("scripts/serve-api.ts", env, ready, { nodeArgs })
          : await startServer("bench/baseline-server.ts", env, `http://127.0.0.1:${port}/`, { nodeArgs });
    return {
      url: `http://127.0.0.1:${port}`,
      pid: server.pid!,
      database: new URL(db.url).pathname.slice(1),
      keys,
      store: upstash?.cpu,
      async stop() {
        await stopGroup(server);
        await upstash?.stop();
        await db.drop();
      },
    };
  } catch (error) {
    await upstash?.stop();
    await db.drop();
    throw error;
  }
}

/** Creates of `count` fresh references from the `from`-th on, each with the next partner's key. */
const creates = (keys: string[], from: number, count: number): WrkRequest[] =>
  Array.from({ length: count }, (_, i) => ({
    method: "POST",
    path: CREATE_PATH,
    apiKey: keys[(from + i) % keys.length]!,
    body: JSON.stringify({ cadastral_reference: benchReference(from + i) }),
  }));

/** The warm-up (JIT, pools), on references no measured slice uses. */
async function warm(target: Running): Promise<void> {
  const requests = creates(target.keys, 5_000_000, warmup * MAX_RATE);
  await wrk({ url: target.url, seconds: warmup, connections: concurrency, requests });
}

/** One measured slice of `seconds` on round `r`'s fresh references: throughput, latency and CPU per create. */
async function slice(label: string, target: Running, r: number): Promise<Measured> {
  const cpuBefore = {
    server: treeCpuSeconds(target.pid),
    postgres: postgresCpu(target.database),
    store: target.store?.() ?? 0,
  };
  const from = profileClock();
  const result = await wrk({
    url: target.url,
    seconds,
    connections: concurrency,
    requests: creates(target.keys, r * seconds * MAX_RATE, seconds * MAX_RATE),
  });
  const window = { from, to: profileClock() };
  const perRequest = (cpuSeconds: number) => round2((cpuSeconds * 1000) / result.requests);
  windows[label] = { ...window, requests: result.requests };
  const measured = {
    ...result,
    rssMiB: rssMiB(target.pid),
    serverCpuMsPerRequest: perRequest(treeCpuSeconds(target.pid) - cpuBefore.server),
    postgresCpuMsPerRequest: perRequest(postgresCpuSince(cpuBefore.postgres, target.database)),
    ...(target.store ? { upstashCpuMsPerRequest: perRequest(target.store() - cpuBefore.store) } : {}),
  };
  const name = rounds > 1 ? `${label} #${r + 1}` : label;
  console.log(
    `${name.padEnd(10)} ${result.perSecond} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  ` +
      `p99.9 ${result.p999} ms  errors ${result.errorRate}  RSS ${measured.rssMiB} MiB` +
      `  CPU/request: server ${measured.serverCpuMsPerRequest} ms, PostgreSQL ${measured.postgresCpuMsPerRequest} ms` +
      (measured.upstashCpuMsPerRequest !== undefined
        ? `, Redis + REST front ${measured.upstashCpuMsPerRequest} ms`
        : "") +
      `  ${JSON.stringify(result.statuses)}`,
  );
  return measured;
}

const round2 = (n: number) => round(n, 2);
const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);
function median(ns: number[]): number {
  const sorted = [...ns].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A target's slices as one run: throughput and CPU per create over all its requests, latency
 * percentiles as the median slice's (percentiles of separate runs do not add up), the largest RSS.
 */
function combined(measured: Measured[]): Measured {
  if (measured.length === 1) return measured[0]!;
  const requests = sum(measured.map((m) => m.requests));
  const time = sum(measured.map((m) => m.seconds));
  const weighted = (of: (m: Measured) => number) => round2(sum(measured.map((m) => of(m) * m.requests)) / requests);
  const statuses: Record<string, number> = {};
  for (const m of measured)
    for (const [status, n] of Object.entries(m.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const store = measured.every((m) => m.upstashCpuMsPerRequest !== undefined)
    ? { upstashCpuMsPerRequest: weighted((m) => m.upstashCpuMsPerRequest!) }
    : {};
  return {
    requests,
    seconds: round(time),
    perSecond: round(requests / time),
    p50: round(median(measured.map((m) => m.p50))),
    p99: round(median(measured.map((m) => m.p99))),
    p999: round(median(measured.map((m) => m.p999))),
    statuses,
    errorRate: round(sum(measured.map((m) => m.errorRate * m.requests)) / requests, 4),
    rssMiB: Math.max(...measured.map((m) => m.rssMiB)),
    serverCpuMsPerRequest: weighted((m) => m.serverCpuMsPerRequest),
    postgresCpuMsPerRequest: weighted((m) => m.postgresCpuMsPerRequest),
    ...store,
  };
}

/** Each target's measured run on the profile's clock (bench/profile.ts), for --profile. */
const windows: Record<string, { from: number; to: number; requests: number }> = {};
const targets = values.targets.split(",") as Target[];
const profileDir = path.join(os.tmpdir(), `finca-profile-${process.pid}`);
// The product's server serves Next.js's build: made first when missing or stale (scripts/build.mjs).
if (targets.includes("next") && spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" }).status !== 0)
  process.exit(1);
// One round: each target started, measured and stopped in turn. More: every target up at once and
// measured in turn, round after round, each round in another order (rotated), so that what the
// machine does meanwhile falls on every target alike and each round's ratios pair slices minutes apart at most.
const slices: Partial<Record<Target, Measured[]>> = {};
for (const group of rounds === 1 ? targets.map((t) => [t]) : [targets]) {
  const running = new Map<Target, Running>();
  try {
    for (const target of group) running.set(target, await startTarget(target));
    for (const target of group) await warm(running.get(target)!);
    for (let r = 0; r < rounds; r++)
      for (const target of group.map((_, i) => group[(i + r) % group.length]!))
        (slices[target] ??= []).push(await slice(target, running.get(target)!, r));
  } finally {
    for (const target of running.values()) await target.stop();
  }
}
const results: Record<string, unknown> = Object.fromEntries(
  Object.entries(slices).map(([target, measured]) => [target, combined(measured)]),
);

const ratio = (target: string) =>
  results[target] && results.baseline
    ? round((results[target] as LoadResult).perSecond / (results.baseline as LoadResult).perSecond, 2)
    : null;
// CPU per create (server and PostgreSQL) against the baseline's: steadier than throughput on a
// machine others share, whose load moves from one target's run to the next.
const cpuOf = (m: Measured) => m.serverCpuMsPerRequest + m.postgresCpuMsPerRequest + (m.upstashCpuMsPerRequest ?? 0);
const cpuRatio = (target: string) =>
  results[target] && results.baseline
    ? round(cpuOf(results[target] as Measured) / cpuOf(results.baseline as Measured), 2)
    : null;
// The goals are against the floor: a create's two statements with nothing around them (issue 42):
// throughput, and the server's CPU per create (the API's own work; the floor's PostgreSQL work is the same).
const FLOOR = "two-statements";
/** A target's ratios to the floor round by round (a round's slices are minutes apart at most): median and range. */
function againstFloor(target: Target, of: (m: Measured) => number) {
  const floor = slices[FLOOR];
  const own = slices[target];
  if (!floor || !own) return null;
  const each = own.map((m, r) => round2(of(m) / of(floor[r]!)));
  return rounds === 1
    ? each[0]!
    : { median: round2(median(each)), min: Math.min(...each), max: Math.max(...each), each };
}
const summary = {
  settings: { seconds, rounds, concurrency, partners: partnerCount, registers: "sandbox, instant", load: "wrk" },
  results,
  ratio: {
    next_vs_baseline: ratio("next"),
    lean_vs_baseline: ratio("lean"),
    lean_without_request_logs_vs_baseline: ratio("lean-nologs"),
    upstash_vs_baseline: ratio("upstash"),
    two_statements_vs_baseline: ratio("two-statements"),
    promise_hooks_on_vs_off:
      results.lean && results["lean-hooks"]
        ? round((results["lean-hooks"] as LoadResult).perSecond / (results.lean as LoadResult).perSecond, 2)
        : null,
    request_logs_on_vs_off:
      results.lean && results["lean-nologs"]
        ? round((results.lean as LoadResult).perSecond / (results["lean-nologs"] as LoadResult).perSecond, 2)
        : null,
  },
  floor: Object.fromEntries(
    targets
      .filter((t) => t !== FLOOR && t !== "baseline")
      .map((t) => [
        t,
        { throughput: againstFloor(t, (m) => m.perSecond), serverCpu: againstFloor(t, (m) => m.serverCpuMsPerRequest) },
      ]),
  ),
  cpuRatio: Object.fromEntries(targets.filter((t) => t !== "baseline").map((t) => [`${t}_vs_baseline`, cpuRatio(t)])),
};
console.log("ratios (throughput vs bare insert):", summary.ratio);
console.log("CPU per create (server + PostgreSQL) vs bare insert:", summary.cpuRatio);
console.log(
  "against the floor (two statements): throughput and server CPU per create:",
  inspect(summary.floor, { depth: null, breakLength: 120 }),
);
if (values.profile) {
  // Each server writes its profile on a clean exit; the biggest file is the main thread's.
  for (const target of targets) {
    const dir = path.join(profileDir, target);
    const files = readdirSync(dir).map((f) => path.join(dir, f));
    const biggest = files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
    console.log(`=== ${target}\n${summarizeProfile(biggest, 25, windows[target])}`);
  }
}
// A partial run (--targets) is for exploring: only the full comparison is recorded.
if (TARGETS.every((t) => targets.includes(t))) console.log("written", await writeResult("create", summary));
