// bench/pipeline: 10,000 properties created in a burst on PostgreSQL, sandbox registers answering
// at 50 ms, nothing enriched inline (deadline 0): time until all are final and until every
// property.enriched webhook reached a local receiver, properties/s and deliveries/s, event →
// receipt latency, duplicates and missing, RSS and CPU per property, with 1 and with 3 worker
// processes. Two modes: `burst`, the workers running while the creates arrive (the pipeline can go
// no faster than the API on the same cores creates), and `backlog`, the workers started once every
// create is answered (a backlog after an outage, or a portfolio): the pipeline at its own limit,
// timed from the workers' readiness. Baseline in the same run: the same register calls and the
// same signed POSTs (lib/webhooks/send) made directly from a loop at the pipeline's concurrency.
//   npx tsx bench/pipeline.ts [--properties 10000] [--workers 1,3] [--modes burst,backlog] [--concurrency 32] [--pool 10]
import { ENRICH_CONCURRENCY } from "@/jobs/enrich";
import { benchOptions, directLoop, load, PipelineStack, round, violations, writeResult } from "./lib";

const values = benchOptions({
  properties: 10000,
  workers: "1,3",
  modes: "burst,backlog",
  concurrency: 32,
  pool: 10,
  "timeout-seconds": 900,
});
const total = values.properties;
const workerCounts = values.workers.split(",").map(Number);
const modes = values.modes.split(",") as ("burst" | "backlog")[];
if (modes.some((m) => m !== "burst" && m !== "backlog")) throw new Error(`--modes: burst, backlog or both`);
const concurrency = values.concurrency;
const timeoutMs = values["timeout-seconds"] * 1000;
// 90 creates per partner stay under the write limit (100 per minute and partner).
const partners = Math.ceil(total / 90);

/** The pipeline with `workers` worker processes, in one of the modes. */
async function measure(workers: number, mode: "burst" | "backlog") {
  const stack = await PipelineStack.start({
    prefix: "finca_bench_pipeline",
    partners,
    workers,
    poolSize: values.pool,
    idle: mode === "backlog",
  });
  try {
    const creates = load({ url: stack.url, seconds: 600, concurrency, stopAfter: total, request: stack.createRequest });
    if (mode === "backlog") {
      await creates;
      await stack.startWorkers();
    }
    const cpuBefore = stack.cpu();
    const started = Date.now();
    // Already final or received when the clock starts (a backlog's workers run before they say ready).
    const before = mode === "backlog" ? (await stack.progress()).final : 0;
    const receivedBefore = stack.receiver.receipts.size;
    const { load: burst, finalAt, receivedAt } = await stack.settle(creates, timeoutMs);
    const rss = stack.rss();
    // CPU used during the run (start-up excluded).
    const cpuAfter = stack.cpu();
    const cpu = {
      api: round(cpuAfter.api - cpuBefore.api, 2),
      workers: cpuAfter.workers.map((c, i) => round(c - cpuBefore.workers[i]!, 2)),
    };
    const workerCpu = cpu.workers.reduce((a, b) => a + b, 0);
    const audit = await stack.audit();
    const finalSeconds = finalAt && (finalAt - started) / 1000;
    const receivedSeconds = receivedAt && (receivedAt - started) / 1000;
    return {
      workers,
      mode,
      burst: {
        seconds: burst.seconds,
        perSecond: burst.perSecond,
        p50: burst.p50,
        p99: burst.p99,
        statuses: burst.statuses,
      },
      finalSeconds: finalSeconds && round(finalSeconds),
      receivedSeconds: receivedSeconds && round(receivedSeconds),
      propertiesPerSecond: finalSeconds ? round((audit.properties - before) / finalSeconds) : 0,
      deliveriesPerSecond: receivedSeconds ? round((audit.received.distinct - receivedBefore) / receivedSeconds) : 0,
      eventToReceiptMs: await stack.eventToReceiptMs(),
      duplicates: audit.received.duplicates,
      missing: audit.missing,
      rssMiB: rss,
      cpuSeconds: { api: cpu.api, workers: cpu.workers },
      // Per property: its enrichment runs and its delivery, all worker processes together.
      workerCpuMsPerProperty: round((workerCpu * 1000) / (audit.properties - before)),
      // A backlog's creates were answered before the clock started.
      apiCpuMsPerCreate: mode === "burst" ? round((cpu.api * 1000) / audit.properties) : null,
      audit,
      violations: violations(audit),
      timeline: stack.timeline,
    };
  } finally {
    await stack.stop();
  }
}

const runs = [];
for (const workers of workerCounts) {
  const base = await directLoop(total, ENRICH_CONCURRENCY * workers);
  for (const mode of modes) {
    const run = await measure(workers, mode);
    runs.push({ ...run, baseline: base, ratio: round(run.propertiesPerSecond / base.perSecond, 2) });
    console.log(
      `${workers} worker(s), ${mode}: done`,
      run.violations.length ? `VIOLATIONS: ${run.violations.join("; ")}` : "",
    );
  }
}

console.log(
  `\n${total} properties in a burst, registers at 50 ms, ${partners} partners, create concurrency ${concurrency}`,
);
console.log(
  "workers | mode | burst s | creates/s | all final s | all received s | properties/s | deliveries/s | event→receipt p50/p99 ms | dup | missing | RSS api / workers MiB | worker CPU ms/property | baseline/s | ratio",
);
for (const r of runs) {
  console.log(
    [
      r.workers,
      r.mode,
      r.burst.seconds,
      r.burst.perSecond,
      r.finalSeconds,
      r.receivedSeconds,
      r.propertiesPerSecond,
      r.deliveriesPerSecond,
      `${r.eventToReceiptMs.p50} / ${r.eventToReceiptMs.p99}`,
      r.duplicates,
      r.missing,
      `${r.rssMiB.api} / ${r.rssMiB.workers.join(", ")}`,
      r.workerCpuMsPerProperty,
      r.baseline.perSecond,
      r.ratio,
    ].join(" | "),
  );
}
const file = await writeResult("pipeline", {
  settings: {
    properties: total,
    partners,
    concurrency,
    registerLatencyMs: 50,
    deadlineMs: 0,
    poolPerProcess: values.pool,
  },
  runs,
});
console.log("written", file);
if (runs.some((r) => r.violations.length)) process.exit(1);
