// bench/enrich: (1) enriched properties per second through the durable workers, sandbox registers
// answering at 50 ms, on PostgreSQL, against a baseline of the same register calls made directly
// in-process; (2) create latency p99 while one register (the live cadastre) hangs, against the same
// load with registers answering at once.
//   npx tsx bench/enrich.ts [--properties 2000] [--workers 1] [--rate 200] [--seconds 15]
import http from "node:http";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { checkLetters } from "@/lib/cadastral-reference";
import { openDatabase, rowsOf } from "@/lib/db";
import { createApiKey } from "@/lib/api-keys";
import { createPartner } from "@/lib/partners";
import { loadConfig } from "@/lib/config";
import { createSources } from "@/lib/enrichment/sources";
import { freePort, freshDatabase, load, startServer, stopServer, writeResult } from "./lib";

const { values } = parseArgs({
  options: {
    properties: { type: "string", default: "2000" },
    workers: { type: "string", default: "1" },
    rate: { type: "string", default: "200" },
    seconds: { type: "string", default: "15" },
  },
});
const total = Number(values.properties);
const workerCount = Number(values.workers);
const rate = Number(values.rate);
const seconds = Number(values.seconds);

const reference = (i: number) => {
  const first18 = String(2_000_000 + i).slice(-7) + "YJ0624N" + "0001";
  return first18 + checkLetters(first18);
};

async function seedKeys(url: string, count: number, mode: "test" | "live") {
  const database = await openDatabase({ url });
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const partner = await createPartner(database.db, `Bench ${mode} ${i}`);
    keys.push((await createApiKey(database.db, { partnerId: partner.id, mode, name: "bench" })).key);
  }
  return { database, keys };
}

/** (1) Pipeline throughput through the workers. */
async function pipeline() {
  const db = await freshDatabase("finca_bench_enrich");
  const { database, keys } = await seedKeys(db.url, Math.ceil(total / 90), "test");
  const port = await freePort();
  const common = { DATABASE_URL: db.url, SANDBOX_LATENCY_MS: "50", AUTH_SECRET: "bench", AUTH_TRUST_HOST: "true", ENRICHMENT_RETRY_SCHEDULE_TEST: "0,1,2" };
  // Deadline 0: nothing is enriched inline, every property goes through the workers.
  const api = await startServer("npx", ["tsx", "scripts/serve-api.ts"], { ...common, PORT: String(port), FINCA_WORKERS: "0", ENRICHMENT_DEADLINE_MS: "0" }, `http://127.0.0.1:${port}/api/v1/partner-api/openapi.json`);
  const started = Date.now();
  const created = await load({
    url: `http://127.0.0.1:${port}`,
    seconds: 600,
    concurrency: 16,
    stopAfter: total,
    request: (i) => ({
      method: "POST",
      path: "/api/v1/partner-api/properties",
      headers: { "Content-Type": "application/json", "X-API-Key": keys[i % keys.length]! },
      body: JSON.stringify({ cadastral_reference: reference(i) }),
    }),
  });
  await stopServer(api);
  const workers = await Promise.all(
    Array.from({ length: workerCount }, async () => startServer("npx", ["tsx", "scripts/worker.ts"], { ...common, ENRICHMENT_DEADLINE_MS: "0" }, "")),
  );
  const workersStarted = Date.now();
  let done = 0;
  while (done < total) {
    await new Promise((r) => setTimeout(r, 250));
    done = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from properties where status <> 'enriching'`))[0]!.n;
    if (Date.now() - workersStarted > 600_000) break;
  }
  const elapsed = (Date.now() - workersStarted) / 1000;
  await Promise.all(workers.map(stopServer));
  await database.close();
  await db.drop();

  // Baseline: the same sandbox calls (cadastre, then certificate ∥ ITE) made directly, 16 × workers in parallel.
  const sources = createSources(loadConfig({ SANDBOX_LATENCY_MS: "50" })).test;
  const baselineStarted = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 * workerCount }, async () => {
      while (next < total) {
        const i = next++;
        const signal = new AbortController().signal;
        const input = { reference: reference(i), mode: "test" as const, attempt: 1, signal };
        const c = await sources.cadastre.lookup(input);
        if (c.kind === "found") await Promise.all([sources.energyCertificate.lookup({ ...input, facts: c.data }), sources.ite.lookup({ ...input, facts: c.data })]);
      }
    }),
  );
  const baselineSeconds = (Date.now() - baselineStarted) / 1000;
  return {
    properties: total,
    finished: done,
    createPerSecond: created.perSecond,
    workers: workerCount,
    workerSeconds: elapsed,
    enrichedPerSecond: Math.round((done / elapsed) * 10) / 10,
    baselinePerSecond: Math.round((total / baselineSeconds) * 10) / 10,
  };
}

/** (2) Create latency while the live cadastre hangs, vs. instant sandbox registers. */
async function hangingRegister() {
  const hanging = http.createServer(() => {}); // accepts and never answers
  await new Promise<void>((r) => hanging.listen(0, "127.0.0.1", r));
  const hangUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}`;
  const out: Record<string, unknown> = {};
  for (const [label, mode] of [["instant_registers", "test"], ["cadastre_hanging", "live"]] as const) {
    const db = await freshDatabase("finca_bench_hang");
    const { database, keys } = await seedKeys(db.url, Math.ceil((rate * (seconds + 5)) / 90), mode);
    await database.close();
    const port = await freePort();
    const server = await startServer(
      "npx",
      ["tsx", "scripts/serve-api.ts"],
      { DATABASE_URL: db.url, PORT: String(port), FINCA_WORKERS: "0", CATASTRO_BASE_URL: hangUrl, AUTH_SECRET: "bench" },
      `http://127.0.0.1:${port}/api/v1/partner-api/openapi.json`,
    );
    const result = await load({
      url: `http://127.0.0.1:${port}`,
      seconds,
      concurrency: 512,
      rate,
      request: (i) => ({
        method: "POST",
        path: "/api/v1/partner-api/properties",
        headers: { "Content-Type": "application/json", "X-API-Key": keys[i % keys.length]! },
        body: JSON.stringify({ cadastral_reference: reference(i) }),
      }),
    });
    await stopServer(server);
    await db.drop();
    out[label] = result;
    console.log(`${label}: ${result.perSecond} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, p99.9 ${result.p999} ms, ${JSON.stringify(result.statuses)}`);
  }
  hanging.close();
  return { deadlineMs: 1500, ratePerSecond: rate, ...out };
}

const throughput = await pipeline();
console.log("pipeline:", throughput);
const hang = await hangingRegister();
console.log("written", await writeResult(`enrich-${workerCount}w`, { throughput, hang }));
