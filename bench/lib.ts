// Shared benchmark plumbing: fresh PostgreSQL databases, child servers, a keep-alive load
// generator with latency percentiles, RSS readings and result files.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import pg from "pg";

export const SERVER_URL = process.env.BENCH_DATABASE_SERVER ?? "postgres://postgres@127.0.0.1:5432/postgres";

export async function freshDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: SERVER_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** Starts a child and waits until `readyUrl` answers, or (no URL) until it prints "ready". */
export async function startServer(command: string, args: string[], env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  // Its own process group, so stopping it also stops what npx/tsx started under it.
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`);
    if (!readyUrl && /ready/.test(log)) return child;
    if (readyUrl) try {
      const res = await fetch(readyUrl);
      await res.arrayBuffer();
      if (res.status < 500) return child;
    } catch {}
    if (Date.now() > deadline) throw new Error(`server not ready:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {}
  };
  group("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  group("SIGKILL");
}

/** Resident set size (MiB) of a process and its descendants (next start forks a server child). */
export function rssMiB(pid: number): number {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      const children = readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, "utf8").trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    } catch {}
  }
  let kib = 0;
  for (const p of pids) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) kib += Number(m[1]);
    } catch {}
  }
  return Math.round(kib / 1024);
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
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const base = new URL(options.url);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let counter = 0;
  const end = Date.now() + options.seconds * 1000;
  const send = () =>
    new Promise<void>((resolve) => {
      const spec = options.request(counter++);
      const started = performance.now();
      const req = http.request(
        { host: base.hostname, port: base.port, method: spec.method, path: spec.path, headers: spec.headers, agent },
        (res) => {
          res.resume();
          res.on("end", () => {
            latencies.push(performance.now() - started);
            statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on("error", (e) => {
        statuses[`error:${(e as NodeJS.ErrnoException).code ?? e.message}`] = (statuses[`error:${(e as NodeJS.ErrnoException).code}`] ?? 0) + 1;
        resolve();
      });
      if (spec.body) req.write(spec.body);
      req.end();
    });
  const started = Date.now();
  if (options.rate) {
    const inflight = new Set<Promise<void>>();
    const interval = 1000 / options.rate;
    let next = Date.now();
    while (Date.now() < end) {
      const p = send().finally(() => inflight.delete(p));
      inflight.add(p);
      next += interval;
      const wait = next - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
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
  const failures = Object.entries(statuses).filter(([s]) => !ok(Number(s))).reduce((n, [, c]) => n + c, 0);
  const requests = latencies.length + Object.entries(statuses).filter(([s]) => s.startsWith("error")).reduce((n, [, c]) => n + c, 0);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    requests,
    seconds: round(seconds),
    perSecond: round(latencies.length / seconds),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    p999: round(percentile(latencies, 99.9)),
    statuses,
    errorRate: requests ? Math.round((failures / requests) * 10000) / 10000 : 0,
  };
}

export async function writeResult(name: string, result: object): Promise<string> {
  const dir = path.join(process.cwd(), "bench", "results");
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify({ measuredAt: new Date().toISOString(), machine: machine(), ...result }, null, 2) + "\n");
  return file;
}

function machine() {
  const cpus = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.+)$/m)?.[1];
  return { node: process.version, cpu: cpus, cores: (readFileSync("/proc/cpuinfo", "utf8").match(/^processor/gm) ?? []).length };
}
