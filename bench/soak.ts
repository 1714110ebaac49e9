// bench/soak: memory under a steady load. Creates at a moderate rate (default 20/s) for
// `--minutes` through the durable pipeline with webhooks (API server + worker processes + local
// receiver, as bench/pipeline), sampling the RSS of the API server and each worker every few
// seconds; the least-squares slope over the second half (MiB/min) is the growth trend. Baseline
// in the same run: the bare insert server (bench/baseline-server.ts, its own database) fed the
// same create stream and sampled the same way, for the slope a process without leaks shows.
//   npx tsx bench/soak.ts [--minutes 10] [--rate 20] [--workers 1] [--sample-seconds 5]
import { openDatabase } from "@/lib/db";
import { createPartner } from "@/lib/partners";
import {
  benchOptions,
  freePort,
  freshDatabase,
  load,
  PipelineStack,
  round,
  rssMiB,
  slope,
  startServer,
  violations,
  writeResult,
  benchReference,
  CREATE_PATH,
} from "./lib";
import { stopGroup } from "@/test/support/processes";

const values = benchOptions({
  minutes: 10,
  rate: 20,
  workers: 1,
  "sample-seconds": 5,
  pool: 10,
  /** A slope above this (MiB/min) over the second half is a growth trend. */
  "max-slope": 1,
});
const { minutes, rate } = values;
const sampleMs = values["sample-seconds"] * 1000;
const maxSlope = values["max-slope"];
// Each partner writes at most 80 per minute (the limit is 100).
const partners = Math.ceil((rate * 60) / 80);

const stack = await PipelineStack.start({
  prefix: "finca_bench_soak",
  partners,
  workers: values.workers,
  poolSize: values.pool,
});
const baseDb = await freshDatabase("finca_bench_soak_base");
let baseline: Awaited<ReturnType<typeof startServer>> | null = null;
let sampler: NodeJS.Timeout | undefined;
try {
  const seed = await openDatabase({ url: baseDb.url, postgres: { poolSize: 1 } });
  const partnerId = (await createPartner(seed.db, "Soak baseline")).id;
  await seed.close();
  const basePort = await freePort();
  baseline = await startServer(
    "bench/baseline-server.ts",
    { DATABASE_URL: baseDb.url, PORT: String(basePort), BENCH_PARTNER_ID: partnerId },
    `http://127.0.0.1:${basePort}/`,
  );
  const baselinePid = baseline.pid!;

  // [minutes since start, api, baseline, ...workers]
  const samples: number[][] = [];
  const started = Date.now();
  const sample = () => {
    const rss = stack.rss();
    samples.push([round((Date.now() - started) / 60_000, 3), rss.api, rssMiB(baselinePid), ...rss.workers]);
  };
  sample();
  sampler = setInterval(sample, sampleMs);
  const seconds = minutes * 60;
  const [product, bare] = await Promise.all([
    load({ url: stack.url, seconds, concurrency: 256, rate, request: stack.createRequest }),
    load({
      url: `http://127.0.0.1:${basePort}`,
      seconds,
      concurrency: 256,
      rate,
      request: (i) => ({
        method: "POST",
        path: CREATE_PATH,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ cadastral_reference: benchReference(i) }),
      }),
    }),
  ]);
  const settled = await stack.settle(Promise.resolve(), 300_000);
  clearInterval(sampler);
  sample();
  const audit = await stack.audit();

  const names = ["api", "baseline", ...stack.workers.map((_, i) => `worker ${i}`)];
  const secondHalf = samples.filter(([t]) => t! >= minutes / 2 && t! <= minutes);
  const trend = Object.fromEntries(
    names.map((name, k) => {
      const mibPerMinute = round(slope(secondHalf.map((s) => [s[0]!, s[k + 1]!])), 2);
      return [
        name,
        {
          first: samples[0]![k + 1],
          afterLoad: secondHalf.at(-1)?.[k + 1],
          last: samples.at(-1)![k + 1],
          max: Math.max(...samples.map((s) => s[k + 1]!)),
          mibPerMinute,
        },
      ];
    }),
  );
  const growing = names.filter((n) => n !== "baseline" && trend[n]!.mibPerMinute > maxSlope);
  // When the bare baseline climbs as steeply, the run was too short to tell heap sizing from a leak.
  const inconclusive =
    growing.length > 0 && trend.baseline!.mibPerMinute >= Math.min(...growing.map((n) => trend[n]!.mibPerMinute));
  const verdict = !growing.length
    ? `no growth trend (API and worker slopes ≤ ${maxSlope} MiB/min; baseline ${trend.baseline!.mibPerMinute})`
    : inconclusive
      ? `inconclusive: ${growing.join(", ")} above ${maxSlope} MiB/min, but the baseline climbs as steeply (${trend.baseline!.mibPerMinute}); run longer`
      : `growth trend in ${growing.join(", ")} (> ${maxSlope} MiB/min, baseline ${trend.baseline!.mibPerMinute})`;
  const problems = violations(audit);
  if (settled.finalAt === null || settled.receivedAt === null) problems.push("not settled within 300 s after the load");

  console.log(
    `\nsoak: ${minutes} min at ${rate} creates/s (${product.requests} sent, ${JSON.stringify(product.statuses)}), ${stack.workers.length} worker(s), RSS every ${sampleMs / 1000} s`,
  );
  console.log("process | RSS start | end of load | after settling | max | slope 2nd half MiB/min");
  for (const n of names)
    console.log(
      [n, trend[n]!.first, trend[n]!.afterLoad, trend[n]!.last, trend[n]!.max, trend[n]!.mibPerMinute].join(" | "),
    );
  console.log(`verdict: ${verdict}; pipeline invariants: ${problems.length ? problems.join("; ") : "ok"}`);
  console.log(
    "written",
    await writeResult("soak", {
      settings: {
        minutes,
        rate,
        workers: stack.workers.length,
        sampleSeconds: sampleMs / 1000,
        partners,
        maxSlopeMiBPerMinute: maxSlope,
      },
      creates: { product: product.statuses, baseline: bare.statuses, p99: product.p99 },
      trend,
      verdict,
      growing,
      inconclusive,
      violations: problems,
      columns: ["minutes", ...names],
      samples,
    }),
  );
  if ((growing.length && !inconclusive) || problems.length) process.exitCode = 1;
} finally {
  clearInterval(sampler);
  if (baseline) await stopGroup(baseline);
  await stack.stop();
  await baseDb.drop();
}
