// Closed-loop HTTP load with wrk (Debian package `wrk`): a C load generator leaves the two cores to
// the server under test, where a Node client would take one of them. Requests are pre-built from a
// file of lines (one request each, never repeated), so every create is a new property.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { round, type LoadResult } from "./lib";

// Each thread takes every `stride`-th line; statuses are counted per thread and summed in done().
const SCRIPT = `
local threads, counter = {}, 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end
local reqs, n, i = {}, 0, 0
statuses = {}
function init(args)
  local stride, k = tonumber(args[2]), 0
  for line in io.lines(args[1]) do
    if k % stride == tid then
      local method, p, key, body = line:match("^(%S+) (%S+) (%S+) (.*)$")
      n = n + 1
      reqs[n] = wrk.format(method, p, { ["Content-Type"] = "application/json", ["X-API-Key"] = key }, body)
    end
    k = k + 1
  end
end
function request()
  i = i + 1
  if i > n then
    i = 1
    exhausted = true
  end
  return reqs[i]
end
function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency)
  local merged, ran_out = {}, false
  for _, t in ipairs(threads) do
    for s, c in pairs(t:get("statuses")) do merged[tostring(s)] = (merged[tostring(s)] or 0) + c end
    ran_out = ran_out or t:get("exhausted") == true
  end
  local parts = {}
  for s, c in pairs(merged) do table.insert(parts, string.format('"%s":%d', s, c)) end
  local e = summary.errors
  io.write(string.format('WRK_RESULT {"requests":%d,"micros":%d,"p50":%d,"p99":%d,"p999":%d,"statuses":{%s},"socketErrors":%d,"exhausted":%s}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency:percentile(99.9),
    table.concat(parts, ","), e.connect + e.read + e.write + e.timeout, tostring(ran_out)))
end
`;

export interface WrkRequest {
  method: string;
  path: string;
  apiKey: string;
  body: string;
}

/** Runs wrk for `seconds` over `requests` (each sent at most once; the run fails if they run out). */
export async function wrk(options: {
  url: string;
  seconds: number;
  connections: number;
  threads?: number;
  requests: WrkRequest[];
}): Promise<LoadResult> {
  const threads = options.threads ?? 2;
  const dir = await mkdtemp(path.join(os.tmpdir(), "finca-wrk-"));
  try {
    const data = path.join(dir, "requests.txt");
    const script = path.join(dir, "load.lua");
    await writeFile(data, options.requests.map((r) => `${r.method} ${r.path} ${r.apiKey} ${r.body}`).join("\n") + "\n");
    await writeFile(script, SCRIPT);
    const args = [
      "-t",
      String(threads),
      "-c",
      String(options.connections),
      "-d",
      `${options.seconds}s`,
      "--timeout",
      "10s",
      "-s",
      script,
      options.url,
      "--",
      data,
      String(threads),
    ];
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile("wrk", args, { maxBuffer: 1 << 20 }, (error, out, err) =>
        error ? reject(new Error(`wrk failed (apt-get install wrk?): ${error.message}\n${err}`)) : resolve(out),
      ),
    );
    const line = /WRK_RESULT (.*)/.exec(stdout)?.[1];
    if (!line) throw new Error(`no result from wrk:\n${stdout}`);
    const r = JSON.parse(line) as {
      requests: number;
      micros: number;
      p50: number;
      p99: number;
      p999: number;
      statuses: Record<string, number>;
      socketErrors: number;
      exhausted: boolean;
    };
    if (r.exhausted) throw new Error(`wrk ran out of prepared requests (${options.requests.length}); prepare more`);
    const seconds = r.micros / 1e6;
    const failures =
      Object.entries(r.statuses)
        .filter(([s]) => !s.startsWith("2"))
        .reduce((n, [, c]) => n + c, 0) + r.socketErrors;
    return {
      requests: r.requests,
      seconds: round(seconds),
      perSecond: round(r.requests / seconds),
      p50: round(r.p50 / 1000),
      p99: round(r.p99 / 1000),
      p999: round(r.p999 / 1000),
      statuses: r.socketErrors ? { ...r.statuses, "error:socket": r.socketErrors } : r.statuses,
      errorRate: r.requests ? round(failures / r.requests, 4) : 0,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
