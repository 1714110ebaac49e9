// bench/create: sustained create throughput and latency on PostgreSQL with many partners (so the
// rate limit is not the bottleneck), through `next start`, through the same handlers on a lean
// node:http server, and through a bare node:http server doing only the insert (the baseline).
//   npx tsx bench/create.ts [--seconds 20] [--concurrency 32] [--partners 1500]
import { parseArgs } from "node:util";
import { checkLetters } from "@/lib/cadastral-reference";
import { openDatabase } from "@/lib/db";
import { createApiKey } from "@/lib/api-keys";
import { createPartner } from "@/lib/partners";
import { freePort, freshDatabase, load, rssMiB, startServer, stopServer, writeResult, type LoadResult } from "./lib";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "20" }, concurrency: { type: "string", default: "32" }, partners: { type: "string", default: "1500" } },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const partnerCount = Number(values.partners);

/** Unique valid 20-character references, none of them a sandbox scenario. */
function reference(i: number): string {
  const first18 = String(1_000_000 + i).padStart(7, "0").slice(-7) + "VK3799G" + String(1 + (Math.floor(i / 9_000_000) % 8000)).padStart(4, "0");
  return first18 + checkLetters(first18);
}

async function seed(url: string) {
  const database = await openDatabase({ url });
  const keys: string[] = [];
  let partnerId = "";
  for (let i = 0; i < partnerCount; i++) {
    const partner = await createPartner(database.db, `Bench ${i}`);
    partnerId ||= partner.id;
    keys.push((await createApiKey(database.db, { partnerId: partner.id, mode: "test", name: "bench" })).key);
  }
  await database.close();
  return { keys, partnerId };
}

async function measure(label: string, target: { url: string; pid: number }, keys: string[], offset: number): Promise<LoadResult & { rssMiB: number }> {
  const request = (i: number) => ({
    method: "POST",
    path: "/api/v1/partner-api/properties",
    headers: { "Content-Type": "application/json", "X-API-Key": keys[i % keys.length]! },
    body: JSON.stringify({ cadastral_reference: reference(offset + i) }),
  });
  // Warm-up (JIT, pools), then the measured run on fresh references.
  await load({ url: target.url, seconds: 3, concurrency, request: (i) => request(5_000_000 + i) });
  const result = await load({ url: target.url, seconds, concurrency, request });
  const rss = rssMiB(target.pid);
  console.log(`${label.padEnd(10)} ${result.perSecond} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  p99.9 ${result.p999} ms  errors ${result.errorRate}  RSS ${rss} MiB  ${JSON.stringify(result.statuses)}`);
  return { ...result, rssMiB: rss };
}

const results: Record<string, unknown> = {};
for (const target of ["next", "lean", "baseline"] as const) {
  const db = await freshDatabase("finca_bench");
  try {
    const { keys, partnerId } = await seed(db.url);
    const port = await freePort();
    const env = { DATABASE_URL: db.url, PORT: String(port), FINCA_WORKERS: "0", AUTH_SECRET: "bench", AUTH_TRUST_HOST: "true", BENCH_PARTNER_ID: partnerId };
    const ready = `http://127.0.0.1:${port}/api/v1/partner-api/openapi.json`;
    const server =
      target === "next"
        ? await startServer("npx", ["next", "start", "-p", String(port)], env, ready)
        : target === "lean"
          ? await startServer("npx", ["tsx", "scripts/serve-api.ts"], env, ready)
          : await startServer("npx", ["tsx", "bench/baseline-server.ts"], env, `http://127.0.0.1:${port}/`);
    try {
      results[target] = await measure(target, { url: `http://127.0.0.1:${port}`, pid: server.pid! }, keys, 0);
    } finally {
      await stopServer(server);
    }
  } finally {
    await db.drop();
  }
}

const base = (results.baseline as LoadResult).perSecond;
const summary = {
  settings: { seconds, concurrency, partners: partnerCount, registers: "sandbox, instant" },
  results,
  ratio: {
    next_vs_baseline: Math.round(((results.next as LoadResult).perSecond / base) * 100) / 100,
    lean_vs_baseline: Math.round(((results.lean as LoadResult).perSecond / base) * 100) / 100,
  },
};
console.log("ratios (throughput vs bare insert):", summary.ratio);
console.log("written", await writeResult("create", summary));
