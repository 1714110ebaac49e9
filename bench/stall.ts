// bench/stall: creates at a fixed rate (open loop) with a per-second latency timeline, and what
// happened in each second beside them, to find what the stalls (a second whose slowest create
// takes 100 ms or more) coincide with: PostgreSQL's checkpoints (its log, `log_checkpoints`),
// pg-boss's maintenance (`maintained_on` in its schema), the waits of the database's active backends
// (pg_stat_activity, sampled every 100 ms), the server's and the machine's CPU, and this load
// generator's own event-loop delay (a stall of the generator is not the server's).
//   npx tsx bench/stall.ts [--rate 200] [--seconds 60] [--warmup 6] [--request-logs 1] [--maintenance 15]
//     [--pg-log /var/log/postgresql/postgresql-15-main.log] [--checkpoint-every 0]
// Variants make a suspect go away: --request-logs 0, --maintenance 3600 (no pg-boss maintenance in the run);
// --checkpoint-every N makes one happen: an immediate CHECKPOINT every N s (what DROP DATABASE requests,
// which every test file and benchmark on a shared server does when it ends).
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import { stopGroup } from "@/test/support/processes";
import {
  benchOptions,
  benchReference,
  CREATE_PATH,
  freePort,
  freshDatabase,
  load,
  percentile,
  READY_PATH,
  round,
  seedPartnerKeys,
  startServer,
  treeCpuSeconds,
  writeResult,
} from "./lib";

const values = benchOptions({
  rate: 200,
  seconds: 60,
  warmup: 6,
  "request-logs": "1",
  maintenance: 15,
  "stall-ms": 100,
  "pg-log": "/var/log/postgresql/postgresql-15-main.log",
  "checkpoint-every": 0,
});
const { rate, seconds, warmup } = values;
const stallMs = values["stall-ms"];
const checkpointEvery = values["checkpoint-every"];

/** The machine's busy and total CPU ticks (/proc/stat), for its busy share per second. */
function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const ticks = fields.map(Number);
  const idle = ticks[3]! + ticks[4]!;
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** PostgreSQL's checkpoints that overlap [from, to] (ms), from its log; null when the log cannot be read. */
function checkpoints(file: string, from: number, to: number): { start: number; end: number; kind: string }[] | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const out: { start: number; end: number; kind: string }[] = [];
  let open: { start: number; kind: string } | null = null;
  for (const line of text.split("\n")) {
    const m = /^(\S+ \S+) UTC \[\d+\] LOG:\s+checkpoint (starting|complete):\s*(.*)$/.exec(line);
    if (!m) continue;
    const at = Date.parse(`${m[1]!.replace(" ", "T")}Z`);
    if (m[2] === "starting") open = { start: at, kind: m[3]!.trim() };
    else if (open) {
      if (at >= from && open.start <= to) out.push({ ...open, end: at });
      open = null;
    }
  }
  return out;
}

interface Second {
  at: number;
  latencies: number[];
  waits: Map<string, number>;
  maintenance: boolean;
  generatorDelayMs: number;
  serverCpu: number;
  machineBusy: number;
}

const db = await freshDatabase("finca_bench_stall");
const second = (ms: number) => Math.floor(ms / 1000) * 1000;
const timeline = new Map<number, Second>();
const bucket = (at: number) => {
  const key = second(at);
  let s = timeline.get(key);
  if (!s)
    timeline.set(
      key,
      (s = {
        at: key,
        latencies: [],
        waits: new Map(),
        maintenance: false,
        generatorDelayMs: 0,
        serverCpu: 0,
        machineBusy: 0,
      }),
    );
  return s;
};
try {
  const { keys } = await seedPartnerKeys(db.url, Math.ceil((rate * (seconds + warmup + 5)) / 90));
  const port = await freePort();
  const database = new URL(db.url).pathname.slice(1);
  const env = {
    DATABASE_URL: db.url,
    PORT: String(port),
    FINCA_WORKERS: "0",
    REQUEST_LOGS: values["request-logs"],
    JOB_MAINTENANCE_SECONDS: String(values.maintenance),
  };
  const server = await startServer("scripts/serve-api.ts", env, `http://127.0.0.1:${port}${READY_PATH}`);
  const probe = new pg.Client({ connectionString: db.url });
  await probe.connect();
  try {
    const request = (i: number) => ({
      method: "POST",
      path: CREATE_PATH,
      headers: { "Content-Type": "application/json", "X-API-Key": keys[i % keys.length]! },
      body: JSON.stringify({ cadastral_reference: benchReference(i) }),
    });
    const url = `http://127.0.0.1:${port}`;
    await load({ url, seconds: warmup, concurrency: 1024, rate, request: (i) => request(5_000_000 + i) });

    // Every 100 ms: the waits of the database's active backends and pg-boss's last maintenance.
    let sampling = true;
    let maintainedOn: string | null = null;
    const sampler = (async () => {
      while (sampling) {
        const now = Date.now();
        const { rows } = await probe.query<{ wait: string | null; what: string }>(
          `select coalesce(wait_event_type || ':' || wait_event, 'CPU') as wait,
                  case when query ilike 'checkpoint%' then 'forced checkpoint' when query ilike '%pgboss%' then 'pg-boss' when query ilike '%request_logs%' then 'request log'
                       else 'create' end as what
             from pg_stat_activity where datname = $1 and state = 'active' and pid <> pg_backend_pid()`,
          [database],
        );
        const s = bucket(now);
        for (const r of rows) s.waits.set(`${r.what} ${r.wait}`, (s.waits.get(`${r.what} ${r.wait}`) ?? 0) + 1);
        const [version] = (
          await probe.query<{ m: string | null }>(`select maintained_on::text as m from pgboss.version`)
        ).rows;
        if (version?.m && version.m !== maintainedOn) {
          if (maintainedOn !== null) s.maintenance = true;
          maintainedOn = version.m;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    // Every second: this generator's own event-loop delay, the server's and the machine's CPU.
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let cpu = treeCpuSeconds(server.pid!);
    let ticks = machineTicks();
    const meter = setInterval(() => {
      const s = bucket(Date.now() - 500);
      s.generatorDelayMs = round(delay.max / 1e6, 1);
      delay.reset();
      const nowCpu = treeCpuSeconds(server.pid!);
      const nowTicks = machineTicks();
      s.serverCpu = round(nowCpu - cpu, 2);
      s.machineBusy = round((nowTicks.busy - ticks.busy) / (nowTicks.total - ticks.total), 2);
      cpu = nowCpu;
      ticks = nowTicks;
    }, 1000);
    // The forced checkpoints go through a connection of their own (the probe keeps sampling meanwhile).
    const forcer = checkpointEvery ? new pg.Client({ connectionString: db.url }) : null;
    await forcer?.connect();
    const forcing =
      forcer && setInterval(() => void forcer.query("checkpoint").catch(() => {}), checkpointEvery * 1000);
    const from = Date.now();
    const result = await load({
      url,
      seconds,
      concurrency: 1024,
      rate,
      request,
      onLatency: (sentAt, ms) => bucket(sentAt).latencies.push(ms),
    });
    const to = Date.now();
    if (forcing) clearInterval(forcing);
    await forcer?.end();
    clearInterval(meter);
    delay.disable();
    sampling = false;
    await sampler;

    const ckpts = checkpoints(values["pg-log"], from, to);
    const rows = [...timeline.values()]
      .filter((s) => s.at >= second(from) && s.at < to && s.latencies.length)
      .sort((a, b) => a.at - b.at)
      .map((s) => {
        const sorted = s.latencies.sort((a, b) => a - b);
        const checkpoint = ckpts?.find((c) => c.start < s.at + 1000 && c.end >= s.at);
        const waits = [...s.waits]
          .filter(([k]) => !k.endsWith(" CPU") && !k.includes("ClientRead"))
          .map(([k, n]) => `${k}×${n}`)
          .join(" ");
        return {
          at: new Date(s.at).toISOString().slice(11, 19),
          creates: sorted.length,
          p50: round(percentile(sorted, 50), 1),
          p99: round(percentile(sorted, 99), 1),
          max: round(sorted.at(-1)!, 1),
          stall: sorted.at(-1)! >= stallMs,
          checkpoint: checkpoint ? checkpoint.kind : null,
          maintenance: s.maintenance,
          waits,
          generatorDelayMs: s.generatorDelayMs,
          serverCpu: s.serverCpu,
          machineBusy: s.machineBusy,
        };
      });
    for (const r of rows)
      console.log(
        `${r.at} ${String(r.creates).padStart(4)}/s p50 ${String(r.p50).padStart(6)} p99 ${String(r.p99).padStart(6)} ` +
          `max ${String(r.max).padStart(6)} ms ${r.stall ? "STALL" : "     "} server CPU ${r.serverCpu} s ` +
          `machine ${Math.round(r.machineBusy * 100)} % generator delay ${r.generatorDelayMs} ms` +
          (r.checkpoint ? `  CHECKPOINT (${r.checkpoint})` : "") +
          (r.maintenance ? "  PG-BOSS MAINTENANCE" : "") +
          (r.waits ? `  waits: ${r.waits}` : ""),
      );
    const stalls = rows.filter((r) => r.stall);
    const share = (pick: (r: (typeof rows)[number]) => boolean) =>
      stalls.length ? round(stalls.filter(pick).length / stalls.length, 2) : null;
    const summary = {
      seconds: rows.length,
      stalls: stalls.length,
      // Of the stalls, the share that each suspect coincided with (in the same second).
      withCheckpoint: share((r) => r.checkpoint !== null),
      withMaintenance: share((r) => r.maintenance),
      withGeneratorDelay: share((r) => r.generatorDelayMs >= stallMs / 2),
      withMachineOver90: share((r) => r.machineBusy >= 0.9),
      // And how many seconds had each suspect at all (a stall-free second with one acquits it).
      checkpointSeconds: rows.filter((r) => r.checkpoint !== null).length,
      maintenanceSeconds: rows.filter((r) => r.maintenance).length,
      checkpointsSeen: ckpts === null ? "PostgreSQL's log not readable" : ckpts.length,
      // The run's tail against its middle, and the stall seconds' share.
      p99VsP50: result.p50 ? round(result.p99 / result.p50, 2) : null,
      stallShare: rows.length ? round(stalls.length / rows.length, 2) : null,
    };
    console.log(
      `${rate}/s for ${seconds} s: p50 ${result.p50} ms p99 ${result.p99} ms p99.9 ${result.p999} ms errors ${result.errorRate}`,
    );
    console.log("stalls and what they coincided with:", summary);
    const settings = {
      rate,
      seconds,
      requestLogs: values["request-logs"],
      maintenanceSeconds: values.maintenance,
      stallMs,
      checkpointEvery,
    };
    console.log(
      "written",
      await writeResult(`stall-${rate}`, { settings, result, summary, timeline: rows, checkpoints: ckpts }),
    );
  } finally {
    await probe.end();
    await stopGroup(server);
  }
} finally {
  await db.drop();
}
