// Every benchmark in bench/ started for a few seconds with tiny sizes, so a change that breaks one
// fails here rather than on the day someone measures. Each must exit 0 (its invariants hold: no
// duplicate or missing webhook, every create answered) and write its result, into a folder of the
// test's own: bench/results keeps the recorded figures. Timing verdicts are the benchmarks' business
// on a real run: the deadline's allowance and the soak's slope are opened wide here.
// They run on the server of DATABASE_URL (the run's embedded PostgreSQL unless set); they need wrk
// and hyperfine (Debian packages).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runNode } from "./support/processes";

// A hang, not slowness: the longest (chaos, with its baseline) takes about a minute on an idle machine.
const HUNG_MS = 900_000;

let results: string;
beforeAll(async () => {
  results = await mkdtemp(path.join(tmpdir(), "finca-bench-smoke-"));
});
afterAll(() => rm(results, { recursive: true, force: true }));

// What bench/ holds besides the benchmarks: their shared code and the servers and tools they start.
const HELPERS = [
  "lib.ts",
  "profile.ts",
  "wrk.ts",
  "baseline-server.ts",
  "open-database.ts",
  "upload-server.ts",
  "abuse-attacker.ts",
  "cadastre-files.ts",
  "webhook-sender.ts",
];

const SMOKE_RUNS: [string, string[], string][] = [
  [
    "abuse.ts",
    [
      "--seconds",
      "2",
      "--rate",
      "10",
      "--attackers",
      "2",
      "--bomb-mb",
      "2",
      "--sheet-mb",
      "2",
      "--csv-mb",
      "1",
      "--max-ratio",
      "1000000",
      "--max-rss-mib",
      "1000000",
    ],
    "abuse",
  ],
  [
    "create.ts",
    ["--seconds", "1", "--rounds", "2", "--warmup", "1", "--concurrency", "4", "--partners", "4"],
    "create",
  ],
  [
    "deadline.ts",
    ["--rate", "20", "--seconds", "2", "--warmup", "1", "--deadline", "500", "--allowance", "60000"],
    "deadline-20",
  ],
  ["stall.ts", ["--rate", "10", "--seconds", "2", "--warmup", "1"], "stall-10"],
  ["pipeline.ts", ["--properties", "40", "--workers", "1,2", "--pool", "4"], "pipeline"],
  ["chaos.ts", ["--properties", "60", "--workers", "2", "--pool", "4", "--down-seconds", "1"], "chaos"],
  ["receiver-down.ts", ["--properties", "20", "--down-seconds", "1", "--pool", "4"], "receiver-down"],
  [
    "soak.ts",
    ["--minutes", "0.2", "--rate", "5", "--sample-seconds", "1", "--pool", "4", "--max-slope", "1000000"],
    "soak",
  ],
  ["registers-import.ts", ["--rows", "2000", "--creates", "20"], "registers-import"],
  ["cadastre-import.ts", ["--parcels", "200", "--units", "2"], "cadastre-import"],
  [
    "cadastre-portfolio.ts",
    [
      "--items",
      "40",
      "--units",
      "2",
      "--half-items",
      "10",
      "--create-rate",
      "2",
      "--baseline-items",
      "20",
      "--pool",
      "4",
    ],
    "cadastre-portfolio",
  ],
  ["cli.ts", ["--runs", "2", "--warmup", "0"], "cli"],
  ["portal.ts", ["--items", "50", "--seconds", "2"], "portal"],
  ["webhooks.ts", ["--items", "200", "--baseline-items", "100", "--pool", "4"], "webhooks"],
  ["batch-plans.ts", ["--sizes", "600", "--steps", "1"], "batch-plans"],
  [
    "batch.ts",
    [
      "--items",
      "200",
      "--create-rate",
      "5",
      "--create-seconds",
      "2",
      "--baseline-items",
      "50",
      "--pool",
      "4",
      "--memory-seconds",
      "1",
    ],
    "batch",
  ],
];

it("every benchmark in bench/ has its smoke run", async () => {
  const { readdir } = await import("node:fs/promises");
  const scripts = (await readdir("bench")).filter((f) => f.endsWith(".ts") && !HELPERS.includes(f));
  expect(scripts.sort()).toEqual(SMOKE_RUNS.map(([script]) => script).sort());
});

describe("benchmarks, smoke runs", () => {
  it.each(SMOKE_RUNS)("bench/%s runs and writes its result", async (script, args, name) => {
    const run = await runNode(`bench/${script}`, args, {
      env: { BENCH_RESULTS_DIR: results, BENCH_DATABASE_SERVER: process.env.DATABASE_URL },
      timeoutMs: HUNG_MS,
    });
    expect(run.code, `${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`).toBe(0);
    const written = JSON.parse(await readFile(path.join(results, `${name}.json`), "utf8")) as { measuredAt?: string };
    expect(written.measuredAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
