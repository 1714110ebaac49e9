// bench/deadline: create latency at a fixed request rate while one register hangs (the live
// cadastre: it accepts connections and never answers), against the same load with the sandbox
// registers answering at once (the baseline, same run). The contract: the response goes out by the
// deadline with what is known; here p99 must stay within the deadline + 50 ms.
//   npx tsx bench/deadline.ts [--rate 200] [--seconds 20] [--deadline 1500]
import http from "node:http";
import { parseArgs } from "node:util";
import { benchReference, CREATE_PATH, freePort, READY_PATH, freshDatabase, load, seedPartnerKeys, startServer, writeResult, type LoadResult } from "./lib";
import { stopGroup } from "@/test/support/processes";

const { values } = parseArgs({
  options: { rate: { type: "string", default: "200" }, seconds: { type: "string", default: "20" }, deadline: { type: "string", default: "1500" } },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const deadlineMs = Number(values.deadline);
const allowedP99 = deadlineMs + 50;

const hanging = http.createServer(() => {});
await new Promise<void>((r) => hanging.listen(0, "127.0.0.1", r));
const hangUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}`;

const results: Record<string, LoadResult> = {};
for (const [label, mode] of [["registers_instant", "test"], ["cadastre_hanging", "live"]] as const) {
  const db = await freshDatabase("finca_bench_deadline");
  try {
    // 90 creates per partner at most: the write limit (100/min) is not what is measured.
    const { keys } = await seedPartnerKeys(db.url, Math.ceil((rate * (seconds + 5)) / 90), mode);
    const port = await freePort();
    const env = { DATABASE_URL: db.url, PORT: String(port), FINCA_WORKERS: "0", CATASTRO_BASE_URL: hangUrl, ENRICHMENT_DEADLINE_MS: String(deadlineMs) };
    const server = await startServer("scripts/serve-api.ts", env, `http://127.0.0.1:${port}${READY_PATH}`);
    try {
      const request = (i: number) => ({
        method: "POST",
        path: CREATE_PATH,
        headers: { "Content-Type": "application/json", "X-API-Key": keys[i % keys.length]! },
        body: JSON.stringify({ cadastral_reference: benchReference(i) }),
      });
      // Warm-up at the same rate on other references, then the measured run (open loop).
      await load({ url: `http://127.0.0.1:${port}`, seconds: 3, concurrency: 1024, rate, request: (i) => request(5_000_000 + i) });
      results[label] = await load({ url: `http://127.0.0.1:${port}`, seconds, concurrency: 1024, rate, request });
    } finally {
      await stopGroup(server);
    }
  } finally {
    await db.drop();
  }
  const r = results[label]!;
  console.log(`${label.padEnd(18)} ${r.perSecond} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  p99.9 ${r.p999} ms  errors ${r.errorRate}  ${JSON.stringify(r.statuses)}`);
}
hanging.close();

const hang = results.cadastre_hanging!;
const verdict = hang.p99 <= allowedP99 && hang.errorRate === 0 ? "pass" : "fail";
console.log(`cadastre hanging at ${rate} req/s: p99 ${hang.p99} ms against deadline ${deadlineMs} + 50 ms → ${verdict}`);
console.log("written", await writeResult(`deadline-${rate}`, { settings: { rate, seconds, deadlineMs, allowedP99 }, results, verdict }));
process.exit(verdict === "pass" ? 0 : 1);
