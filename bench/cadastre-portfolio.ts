// bench/cadastre-portfolio: a LIVE portfolio over the cadastre index (#41), through the lean API
// server and worker processes, with Catastro stood in by a local server that logs every request:
//   1. every reference lies in an imported municipality (generated files, imported with the product's
//      importers): items per second from acceptance to every item final, against the same lookups
//      (index first, then the live registers) made directly from a loop at the workers' concurrency in
//      the same run; Catastro must receive no request. Live webhook endpoints must use https, so the
//      live partners have none: neither the portfolio nor the loop sends webhooks;
//   2. single live creates of references never imported at `--create-rate`/s alone, for the same
//      time as step 3's: the baseline their p99 is judged against on this machine, this run;
//   3. a second portfolio of `--half-items`, half of them imported and half not, while the same
//      creates (of other references) arrive: every Catastro request meanwhile (the portfolio's, the
//      creates', their retries') against the budget (REGISTER_RATE_LIMITS, on the stand-in's clock:
//      the average rate and the most in any one-second window), the portfolio's alone, and the
//      creates' p99 against the deadline + 50 ms and against step 2's.
//   npx tsx bench/cadastre-portfolio.ts [--items 100000] [--units 4] [--workers 1] [--half-items 1000]
//     [--create-rate 3] [--baseline-items 20000] [--catastro-rate 10] [--register-latency-ms 50]
import http from "node:http";
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { loadavg } from "node:os";
import path from "node:path";
import { ENRICH_CONCURRENCY } from "@/jobs/enrich";
import { loadConfig } from "@/lib/config";
import type { Batch } from "@/lib/domain";
import { createSources } from "@/lib/enrichment/sources";
import { importCadastre, liveRegisters, localFile, registerIndex, registerSettings } from "@/lib/registers";
import { registerBudgets } from "@/lib/registers/budgets";
import { unit, writeCadastreFiles } from "./cadastre-files";
import {
  benchOptions,
  directLoop,
  dnprcAnswer,
  load,
  perMinute,
  PipelineStack,
  postgresCpu,
  postgresCpuSince,
  round,
  sleep,
  treeCpuSeconds,
  writeResult,
} from "./lib";

const values = benchOptions({
  items: 100000,
  units: 4,
  workers: 1,
  "half-items": 1000,
  // Each create asks Catastro twice (the unit's facts, then the parcel's point): at 3/s, 6 of the
  // budget's 10 a second. At 10/s the creates alone would ask twice the budget.
  "create-rate": 3,
  "baseline-items": 20000,
  "catastro-rate": 10,
  "register-latency-ms": 50,
  pool: 10,
  "timeout-seconds": 3600,
});
const { items, units, workers } = values;
const halfItems = values["half-items"];
const createRate = values["create-rate"];
const catastroRate = values["catastro-rate"];
const latencyMs = values["register-latency-ms"];
const deadlineMs = 1500;
const timeoutMs = values["timeout-seconds"] * 1000;

// The imported municipality's sheet is VK4704F (bench/cadastre-files); these sheets are never imported.
const HALF_SHEET = "VK4704G";
const CREATE_SHEET = "VK4704H";
const ALONE_SHEET = "VK4704J";
/** Portfolio 1's n-th reference: every unit of the first parcels, in order. */
const imported = (n: number) => unit(Math.floor(n / units), (n % units) + 1);
const importedParcels = Math.ceil(items / units) + Math.ceil(halfItems / 2 / units);
/** Portfolio 2's n-th reference: its first half on parcels imported after portfolio 1's, its second never imported. */
const half = (n: number) =>
  n < halfItems / 2 ? imported(Math.ceil(items / units) * units + n) : unit(n, 1, HALF_SHEET);

// Catastro, stood in: every request logged (when, and the sheet of the reference it asks about), each
// answered after `latencyMs` with the recorded one-unit answer moved to the reference asked (Madrid,
// where no live certificate or inspection register is asked) and a recorded point.
const CPMRC = readFileSync(
  path.join("lib/enrichment/sources/cadastre/fixtures", "json-cpmrc-6344205CF7664S.json"),
  "utf8",
);
const MADRID = { cp: "28", cm: "79", name: "MADRID" };
const requests: { at: number; sheet: string; path: string }[] = [];
const catastro = http.createServer((req, res) => {
  const asked = new URL(req.url!, "http://catastro");
  const reference = asked.searchParams.get("RefCat") ?? "";
  requests.push({ at: Date.now(), sheet: reference.slice(7, 14), path: asked.pathname });
  setTimeout(() => {
    res.setHeader("content-type", "application/json");
    if (asked.pathname.endsWith("/Consulta_DNPRC")) res.end(dnprcAnswer(reference, MADRID));
    else if (asked.pathname.endsWith("/Consulta_CPMRC")) res.end(CPMRC);
    else res.writeHead(404).end();
  }, latencyMs);
});
await new Promise<void>((r) => catastro.listen(0, "127.0.0.1", r));
const catastroUrl = `http://127.0.0.1:${(catastro.address() as { port: number }).port}`;

/** The most requests in any one-second window, and the average rate from the first to the last. */
function rateOf(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  const spread = sorted.length > 1 ? (sorted.at(-1)! - sorted[0]!) / 1000 : 0;
  return {
    requests: sorted.length,
    spreadSeconds: round(spread),
    average: spread ? round((sorted.length - 1) / spread, 2) : 0,
    mostInOneSecond: most,
  };
}

const env = {
  CATASTRO_BASE_URL: catastroUrl,
  REGISTER_RATE_LIMITS: `catastro=${catastroRate}`,
  ENRICHMENT_DEADLINE_MS: String(deadlineMs),
  BATCH_MAX_ITEMS: String(Math.max(items, halfItems, 100_000)),
  LOG_LEVEL: "warn",
};
// Partner 0 submits portfolio 1, partner 1 portfolio 2; the others make the single creates (90 each,
// inside the write limit), those of step 2 and those of step 3.
const createSeconds = Math.max(5, Math.ceil(((halfItems / 2) * 2) / catastroRate));
// One more than the count asks: an open loop may send a request or two past rate × seconds.
const createPartners = Math.ceil((createRate * createSeconds) / 90) + 1;
const stack = await PipelineStack.start({
  prefix: "finca_bench_cadastre_portfolio",
  partners: 2 + 2 * createPartners,
  workers,
  poolSize: values.pool,
  mode: "live",
  env,
});
const files = await writeCadastreFiles(importedParcels, units);
let result: object;
try {
  let started = Date.now();
  const cat = await importCadastre(stack.database.db, "catastro-cat", [localFile(files.cat)]);
  const inspire = await importCadastre(
    stack.database.db,
    "catastro-inspire",
    [files.cp, files.bu, files.ad].map(localFile),
  );
  const importSeconds = round((Date.now() - started) / 1000);
  console.log(`imported ${importedParcels} parcels × ${units} units in ${importSeconds} s`);

  const submit = async (key: string, references: (n: number) => string, count: number) => {
    const csv = `cadastral_reference\n${Array.from({ length: count }, (_, n) => references(n)).join("\n")}\n`;
    const res = await fetch(`${stack.url}/api/v1/partner-api/batches?name=bench`, {
      method: "POST",
      headers: { "X-API-Key": key, "Content-Type": "text/csv" },
      body: csv,
    });
    if (res.status !== 202) throw new Error(`POST /batches answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Batch;
  };
  /** The batch once final, and its (second, items final) timeline. */
  const final = async (key: string, batch: Batch) => {
    const from = Date.now();
    const until = from + timeoutMs;
    const timeline: [number, number][] = [];
    while (!batch.completed_at && Date.now() < until) {
      await sleep(1000);
      const res = await fetch(`${stack.url}/api/v1/partner-api/batches/${batch.batch_id}`, {
        headers: { "X-API-Key": key },
      });
      batch = (await res.json()) as Batch;
      timeline.push([Math.round((Date.now() - from) / 1000), batch.counts.total - batch.counts.pending]);
    }
    return { batch, timeline };
  };

  // 1. Every reference imported.
  const [allKey, halfKey] = [stack.keys[0]!, stack.keys[1]!];
  // CPU per item of the worker processes and of the database's backends (the API's polls included: a
  // poll a second), fairly robust on a shared machine where items/s is not.
  const database = new URL(stack.db.url).pathname.slice(1);
  const workerCpu = () => stack.workers.reduce((sum, w) => sum + (w?.pid ? treeCpuSeconds(w.pid) : 0), 0);
  const cpuBefore = { workers: workerCpu(), postgres: postgresCpu(database) };
  let batch = await submit(allKey, imported, items);
  started = Date.now();
  const allFinal = await final(allKey, batch);
  batch = allFinal.batch;
  const finalSeconds = (Date.now() - started) / 1000;
  const cpuMsPerItem = {
    workers: round(((workerCpu() - cpuBefore.workers) * 1000) / items, 3),
    postgres: round((postgresCpuSince(cpuBefore.postgres, database) * 1000) / items, 3),
  };
  console.log(`CPU per item: workers ${cpuMsPerItem.workers} ms, PostgreSQL ${cpuMsPerItem.postgres} ms`);
  const { minutes, lowestMinute } = perMinute(allFinal.timeline);
  const loadAtFinal = round(loadavg()[0]!, 2);
  const requestsDuringAll = requests.length;
  const itemsPerSecond = round(items / finalSeconds);
  console.log(
    `all imported: ${items} items final in ${round(finalSeconds)} s (${itemsPerSecond}/s), ${requestsDuringAll} Catastro requests, counts ${JSON.stringify(batch.counts)}`,
  );
  console.log(
    `per minute (items final/s): ${minutes.join(", ")}; the lowest later minute against the first: ${lowestMinute}`,
  );

  // The same lookups from a loop: index first, then the live registers (the stand-in), and the POSTs.
  const config = loadConfig(env);
  const loopSources = createSources(config, {
    live: liveRegisters(registerSettings(env)),
    index: registerIndex(stack.database.db),
    budget: registerBudgets(stack.database.db, config.REGISTER_RATE_LIMITS, config.REGISTER_INTERACTIVE_SHARE),
  }).live;
  const baselineItems = Math.min(values["baseline-items"], items);
  const loopCpuBefore = { own: process.cpuUsage(), postgres: postgresCpu(database) };
  const base = await directLoop(baselineItems, ENRICH_CONCURRENCY * workers, {
    sources: loopSources,
    mode: "live",
    reference: imported,
    webhooks: false,
  });
  const loopCpu = process.cpuUsage(loopCpuBefore.own);
  // The loop's own CPU per item, the same lookups: what the workers' figure is to be set against.
  const loopCpuMsPerItem = {
    loop: round((loopCpu.user + loopCpu.system) / 1000 / baselineItems, 3),
    postgres: round((postgresCpuSince(loopCpuBefore.postgres, database) * 1000) / baselineItems, 3),
  };
  console.log(`CPU per item of the loop: ${loopCpuMsPerItem.loop} ms, PostgreSQL ${loopCpuMsPerItem.postgres} ms`);
  const requestsDuringLoop = requests.length - requestsDuringAll;
  const ratio = round(itemsPerSecond / base.perSecond, 2);
  console.log(`direct loop: ${base.perSecond}/s over ${base.received} items → ratio ${ratio}`);

  /** Single live creates at `--create-rate`/s of references never imported, on `sheet`, by partners from `firstKey`. */
  const createsOn = (sheet: string, firstKey: number) =>
    load({
      url: stack.url,
      seconds: createSeconds,
      concurrency: 256,
      rate: createRate,
      request: (n) => ({
        method: "POST",
        path: "/api/v1/partner-api/properties",
        headers: { "Content-Type": "application/json", "X-API-Key": stack.keys[firstKey + Math.floor(n / 90)]! },
        body: JSON.stringify({ cadastral_reference: unit(n, 1, sheet) }),
      }),
    });

  // 2. The creates alone (their durable retries may still run during step 3: counted there).
  const aloneStart = requests.length;
  const alone = await createsOn(ALONE_SHEET, 2 + createPartners);
  const aloneRate = rateOf(requests.slice(aloneStart).map((r) => r.at));
  console.log(
    `creates alone at ${createRate}/s: p50 ${alone.p50} ms, p99 ${alone.p99} ms,`,
    `Catastro ${JSON.stringify(aloneRate)}, ${JSON.stringify(alone.statuses)}`,
  );

  // 3. Half imported, while the creates arrive.
  const halfStart = requests.length;
  let halfBatch = await submit(halfKey, half, halfItems);
  started = Date.now();
  const creates = createsOn(CREATE_SHEET, 2);
  halfBatch = (await final(halfKey, halfBatch)).batch;
  const halfSeconds = (Date.now() - started) / 1000;
  const createLoad = await creates;
  const during = requests.slice(halfStart);
  // What Catastro receives from us all, the budget's measure; and the portfolio's part of it.
  const catastroRateAll = rateOf(during.map((r) => r.at));
  const portfolioRate = rateOf(during.filter((r) => r.sheet === HALF_SHEET).map((r) => r.at));
  const importedAsked = during.filter((r) => r.sheet === "VK4704F").length;
  const createsAsked = during.filter((r) => r.sheet === CREATE_SHEET).length;
  console.log(
    [
      `half imported: ${halfItems} items final in ${round(halfSeconds)} s, counts ${JSON.stringify(halfBatch.counts)}`,
      `  every Catastro request meanwhile: ${JSON.stringify(catastroRateAll)} (budget ${catastroRate}/s)`,
      `  the portfolio's: ${JSON.stringify(portfolioRate)}; for imported references: ${importedAsked}`,
      `  creates at ${createRate}/s: p50 ${createLoad.p50} ms, p99 ${createLoad.p99} ms` +
        ` (deadline ${deadlineMs} + 50 ms; alone p99 ${alone.p99} ms), ${createsAsked} Catastro requests,` +
        ` ${JSON.stringify(createLoad.statuses)}`,
    ].join("\n"),
  );

  result = {
    settings: { items, units, workers, halfItems, createRate, catastroRate, registerLatencyMs: latencyMs, deadlineMs },
    import: {
      parcels: importedParcels,
      seconds: importSeconds,
      catRecords: cat.counts,
      inspireRecords: inspire.counts,
    },
    allImported: {
      counts: batch.counts,
      finalSeconds: round(finalSeconds),
      itemsPerSecond,
      cpuMsPerItem,
      perMinute: { itemsPerSecond: minutes, lowestAgainstFirst: lowestMinute },
      catastroRequests: requestsDuringAll,
    },
    baseline: { ...base, cpuMsPerItem: loopCpuMsPerItem, catastroRequests: requestsDuringLoop },
    ratio,
    goal: { ratioAtLeast: 0.5, catastroRequests: 0 },
    machineLoadAverage: loadAtFinal,
    halfImported: {
      counts: halfBatch.counts,
      finalSeconds: round(halfSeconds),
      // Every request counts against the budget (the creates' too), as the stand-in received them.
      catastro: {
        ...catastroRateAll,
        budget: catastroRate,
        averageWithinBudget: catastroRateAll.average <= catastroRate,
        everySecondWithinBudget: catastroRateAll.mostInOneSecond <= catastroRate,
      },
      portfolioCatastro: portfolioRate,
      importedReferencesAsked: importedAsked,
      creates: {
        ...createLoad,
        catastroRequests: createsAsked,
        allowedP99: deadlineMs + 50,
        withinDeadline: createLoad.p99 <= deadlineMs + 50,
      },
      // The same creates with no portfolio running, before it: what this machine gives them.
      createsAlone: { ...alone, catastro: aloneRate },
    },
  };
  const answered = (counts: Batch["counts"]) => counts.enriched + counts.partially_enriched;
  if (
    answered(batch.counts) !== items ||
    requestsDuringAll ||
    requestsDuringLoop ||
    importedAsked ||
    answered(halfBatch.counts) !== halfItems
  )
    process.exitCode = 1;
} finally {
  await stack.stop();
  catastro.close();
  await Promise.all(Object.values(files).map((file) => rm(file, { force: true })));
}
console.log("written", await writeResult("cadastre-portfolio", result!));
