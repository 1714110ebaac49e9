// bench/batch: a 100,000-item portfolio in test mode on PostgreSQL (sandbox registers answering in
// 50 ms, every partner with a webhook endpoint at a local verifying receiver), through the lean API
// server and worker processes:
//   - items per second from acceptance to every item final (and every webhook received), against
//     the pipeline's baseline measured in the same run (the same register calls and signed POSTs
//     made directly from a loop at the workers' concurrency, over `--baseline-items`), and each
//     whole minute's rate against the first's (a batch whose steps cost more as it grows slows);
//   - what PostgreSQL did with batch_items meanwhile: updates, how many were HOT, dead rows left,
//     autovacuum and autoanalyze runs (pg_stat_user_tables);
//   - single creates at `--create-rate`/s (open loop, the normal inline deadline) while the batch
//     runs: p99 against the deadline + 50 ms;
//   - the API server's RSS (sampled every 250 ms) while it accepts the CSV, then, once the batch is
//     done, over `--memory-seconds` of streaming its results again and again and as long of
//     accepting the same CSV again and again (each batch cancelled at once; its references are the
//     partner's already, so nothing new is registered): start, peak, the slope over the second half
//     (least squares; the first half lets the heap settle), each whole minute's mean and the live
//     heap's floor, so a leak per request shows as growth.
//   npx tsx bench/batch.ts [--items 100000] [--workers 1] [--create-rate 50] [--create-seconds 60]
//     [--baseline-items 20000] [--memory-seconds 60]
import { loadavg } from "node:os";
import { getTableName, sql } from "drizzle-orm";
import { ENRICH_CONCURRENCY } from "@/jobs/enrich";
import { rowsOf, schema } from "@/lib/db";
import type { Batch } from "@/lib/domain";
import {
  benchOptions,
  benchReference,
  directLoop,
  load,
  perMinute,
  PipelineStack,
  rssMiB,
  round,
  slope,
  sleep,
  writeResult,
} from "./lib";

const values = benchOptions({
  items: 100000,
  workers: 1,
  "create-rate": 50,
  "create-seconds": 60,
  "baseline-items": 20000,
  pool: 10,
  "timeout-seconds": 3600,
  "memory-seconds": 60,
});
const { items, workers } = values;
const createRate = values["create-rate"];
const createSeconds = values["create-seconds"];
const deadlineMs = 1500;
// 90 creates per partner stay under the write limit; partner 0 submits the batch.
const createPartners = Math.ceil((createRate * createSeconds) / 90) + 1;

/** The API server's V8 heap in use (MiB), from its Prometheus scrape. */
async function heapUsedMiB(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const bytes = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1]);
  return round(bytes / 1024 / 1024);
}

/**
 * Samples the API server's RSS every 250 ms while `during` runs: start, peak (MiB), slope (MiB per
 * minute, second half). Its heap in use is read once a second: the lowest reading of the first and
 * of the last quarter is what a collection left live then, so a leak shows as a rising floor even
 * while RSS only follows the heap V8 chose to keep.
 */
async function memoryWhile<T>(pid: number, during: Promise<T>) {
  const started = Date.now();
  const points: [number, number][] = [];
  const heap: [number, number][] = [];
  let done = false;
  const result = during.finally(() => (done = true));
  for (let n = 0; !done; n++) {
    points.push([(Date.now() - started) / 60_000, rssMiB(pid)]);
    if (n % 4 === 0) heap.push([Date.now() - started, await heapUsedMiB(stack.url)]);
    await sleep(250);
  }
  const elapsed = Date.now() - started;
  const floor = (from: number, to: number) => {
    const inside = heap.filter(([t]) => t >= from * elapsed && t <= to * elapsed).map(([, mib]) => mib);
    return inside.length ? Math.min(...inside) : null;
  };
  return {
    result: await result,
    seconds: round(elapsed / 1000),
    startMiB: points[0]![1],
    peakMiB: round(Math.max(...points.map(([, y]) => y))),
    slopeMiBPerMinute: round(slope(points.slice(Math.floor(points.length / 2))), 2),
    heapFloorMiB: { firstQuarter: floor(0, 0.25), lastQuarter: floor(0.75, 1) },
    // A sawtooth of 50 MiB a cycle makes a short window's slope noisy: the mean of each whole minute.
    minuteMeansMiB: Array.from({ length: Math.floor(elapsed / 60_000) }, (_, m) => {
      const inside = points.filter(([t]) => t >= m && t < m + 1).map(([, mib]) => mib);
      return round(inside.reduce((a, b) => a + b, 0) / inside.length);
    }),
    samples: points.length,
  };
}

/** batch_items as PostgreSQL's statistics saw it: updates (HOT among them), dead rows, vacuums. */
async function itemsTableStats() {
  const [row] = rowsOf<Record<string, number | string | null>>(
    await stack.database.db.execute(sql`select n_tup_ins::int as inserted, n_tup_upd::int as updated,
      n_tup_hot_upd::int as hot_updated, n_live_tup::int as live, n_dead_tup::int as dead,
      autovacuum_count::int as autovacuums, autoanalyze_count::int as autoanalyzes,
      last_autovacuum::text as last_autovacuum
      from pg_stat_user_tables where relname = ${getTableName(schema.batchItems)}`),
  );
  return row ?? {};
}

/** Runs `once` again and again for `seconds`: how many times. */
async function repeatFor(seconds: number, once: () => Promise<unknown>): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let n = 0;
  for (; Date.now() < end; n++) await once();
  return n;
}

const stack = await PipelineStack.start({
  prefix: "finca_bench_batch",
  partners: createPartners,
  workers,
  poolSize: values.pool,
  env: {
    ENRICHMENT_DEADLINE_MS: String(deadlineMs),
    BATCH_MAX_ITEMS: String(Math.max(items, 100_000)),
    LOG_LEVEL: "warn",
    // The memory phase submits and cancels the same portfolio as fast as it is answered.
    RATE_LIMIT_WRITES: "100000",
  },
});
let result: object;
try {
  const headers = { "X-API-Key": stack.keys[0]! };
  const csv = `cadastral_reference,external_id\n${Array.from({ length: items }, (_, i) => `${benchReference(i, "VK3799G")},row-${i}`).join("\n")}\n`;
  const api = stack.api!.pid!;
  const rssBefore = rssMiB(api);
  const submit = () =>
    fetch(`${stack.url}/api/v1/partner-api/batches?name=bench`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "text/csv" },
      body: csv,
    }).then(async (res) => {
      if (res.status !== 202) throw new Error(`POST /batches answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as Batch;
    });
  const accept = await memoryWhile(api, submit());
  const accepted = Date.now();
  console.log(`accepted ${items} items in ${accept.seconds} s (API RSS ${rssBefore} → peak ${accept.peakMiB} MiB)`);

  // Single creates at a fixed rate while the batch runs (other partners, other references).
  const creates = load({
    url: stack.url,
    seconds: createSeconds,
    concurrency: 1024,
    rate: createRate,
    request: (i) => ({
      method: "POST",
      path: "/api/v1/partner-api/properties",
      headers: { "Content-Type": "application/json", "X-API-Key": stack.keys[1 + (i % (createPartners - 1))]! },
      body: JSON.stringify({ cadastral_reference: benchReference(i, "YJ0624N") }),
    }),
  });
  const timeline: [number, number][] = [];
  let batch = accept.result;
  const deadline = accepted + values["timeout-seconds"] * 1000;
  while (!batch.completed_at && Date.now() < deadline) {
    await sleep(1000);
    batch = (await (
      await fetch(`${stack.url}/api/v1/partner-api/batches/${batch.batch_id}`, { headers })
    ).json()) as Batch;
    timeline.push([Math.round((Date.now() - accepted) / 1000), batch.counts.total - batch.counts.pending]);
  }
  const finalSeconds = (Date.now() - accepted) / 1000;
  const loadAtFinal = round(loadavg()[0]!, 2);
  const tableStats = await itemsTableStats();
  const { minutes, lowestMinute } = perMinute(timeline);
  const createLoad = await creates;
  // Every property.enriched of the batch received (at least once, signatures verified), and its batch.completed.
  const { events } = await stack.progress();
  while (stack.receiver.receipts.size < events + 1 && Date.now() < deadline) await sleep(250);
  const receivedSeconds = (Date.now() - accepted) / 1000;
  const audit = await stack.audit();

  const memorySeconds = values["memory-seconds"];
  let bytes = 0;
  const streaming = await memoryWhile(
    api,
    repeatFor(memorySeconds, async () => {
      const res = await fetch(`${stack.url}/api/v1/partner-api/batches/${batch.batch_id}/results`, { headers });
      bytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
    }),
  );
  const accepting = await memoryWhile(
    api,
    repeatFor(memorySeconds, async () => {
      const { batch_id } = await submit();
      const res = await fetch(`${stack.url}/api/v1/partner-api/batches/${batch_id}`, { method: "DELETE", headers });
      if (res.status !== 200) throw new Error(`DELETE /batches answered ${res.status}: ${await res.text()}`);
    }),
  );
  const base = await directLoop(values["baseline-items"], ENRICH_CONCURRENCY * workers);
  const itemsPerSecond = round(items / finalSeconds);
  result = {
    settings: {
      items,
      workers,
      createRate,
      createSeconds,
      deadlineMs,
      registerLatencyMs: 50,
      poolPerProcess: values.pool,
      baselineItems: values["baseline-items"],
      memorySeconds,
    },
    batch: {
      status: batch.status,
      counts: batch.counts,
      finalSeconds: round(finalSeconds),
      receivedSeconds: round(receivedSeconds),
      itemsPerSecond,
    },
    baseline: base,
    ratio: round(itemsPerSecond / base.perSecond, 2),
    perMinute: { itemsPerSecond: minutes, lowestAgainstFirst: lowestMinute, atLeast: 0.8 },
    // The machine is shared: its load (1 min) once the batch was final, beside the figures.
    machineLoadAverage: loadAtFinal,
    batchItemsTable: tableStats,
    creates: { ...createLoad, allowedP99: deadlineMs + 50, withinDeadline: createLoad.p99 <= deadlineMs + 50 },
    memory: {
      rssBeforeMiB: rssBefore,
      accept: { ...accept, result: undefined },
      acceptingAgain: { ...accepting, result: undefined, times: accepting.result },
      streaming: { ...streaming, result: undefined, times: streaming.result, bytes },
    },
    webhooks: {
      events,
      received: audit.received,
      missing: audit.missing,
      unknown: audit.unknown,
      propertiesWithSeveralIds: audit.propertiesWithSeveralIds,
    },
    timeline,
  };
  console.log(
    [
      `batch: ${items} items final in ${round(finalSeconds)} s (${itemsPerSecond}/s), webhooks received by ${round(receivedSeconds)} s`,
      `baseline: ${base.perSecond}/s (${base.parallel} loops, ${base.received} items) → ratio ${round(itemsPerSecond / base.perSecond, 2)}`,
      `per minute (items final/s): ${minutes.join(", ")}; the lowest later minute against the first: ${lowestMinute} (at least 0.8)`,
      `batch_items: ${JSON.stringify(tableStats)}`,
      `the machine's load average (1 min) when the batch was final: ${loadAtFinal}`,
      `creates at ${createRate}/s meanwhile: p50 ${createLoad.p50} ms, p99 ${createLoad.p99} ms, p99.9 ${createLoad.p999} ms (deadline ${deadlineMs} + 50 ms) ${JSON.stringify(createLoad.statuses)}`,
      `API RSS accepting once: ${accept.startMiB} → peak ${accept.peakMiB} MiB in ${accept.seconds} s`,
      `API RSS accepting ${accepting.result} times: ${accepting.startMiB} → peak ${accepting.peakMiB} MiB, slope ${accepting.slopeMiBPerMinute} MiB/min over the second half of ${accepting.seconds} s; heap floor ${accepting.heapFloorMiB.firstQuarter} → ${accepting.heapFloorMiB.lastQuarter} MiB; minute means ${accepting.minuteMeansMiB.join(", ")}`,
      `API RSS streaming ${round(bytes / 1024 / 1024)} MiB of results ${streaming.result} times: ${streaming.startMiB} → peak ${streaming.peakMiB} MiB, slope ${streaming.slopeMiBPerMinute} MiB/min over the second half of ${streaming.seconds} s; heap floor ${streaming.heapFloorMiB.firstQuarter} → ${streaming.heapFloorMiB.lastQuarter} MiB; minute means ${streaming.minuteMeansMiB.join(", ")}`,
      `webhooks: ${audit.received.distinct} of ${events + 1} received (property.enriched and batch.completed), ${audit.missing} missing, ${audit.received.duplicates} duplicates, ${audit.received.badSignatures} bad signatures`,
    ].join("\n"),
  );
  if (
    batch.counts.pending ||
    audit.missing ||
    audit.unknown ||
    audit.propertiesWithSeveralIds ||
    audit.received.badSignatures
  )
    process.exitCode = 1;
} finally {
  await stack.stop();
}
console.log("written", await writeResult("batch", result!));
