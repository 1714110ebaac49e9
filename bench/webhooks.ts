// bench/webhooks: webhook deliveries per second through a worker process to a local receiver, and
// the time from an event being recorded to its receipt (p50/p99), on PostgreSQL; the baseline is
// the same signed POSTs sent straight from a loop with the same concurrency.
//   npx tsx bench/webhooks.ts [--events 2000]
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { loadConfig } from "@/lib/config";
import { openDatabase } from "@/lib/db";
import { startQueue } from "@/lib/queue";
import { createPartner } from "@/lib/partners";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { recordEvent, messageIdOf } from "@/lib/webhooks/events";
import { webhookHeaders } from "@/lib/webhooks/sign";
import { freshDatabase, percentile, startServer, stopServer, writeResult } from "./lib";

const { values } = parseArgs({ options: { events: { type: "string", default: "2000" } } });
const total = Number(values.events);
const CONCURRENCY = 16;

const receipts = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    receipts.set(String(req.headers["webhook-id"]), Date.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const db = await freshDatabase("finca_bench_webhooks");
const env = { DATABASE_URL: db.url, FINCA_WEBHOOKS_ALLOW_PRIVATE: "1", JOB_POLL_SECONDS: "0.5" };
const database = await openDatabase({ url: db.url });
const queue = await startQueue(database, loadConfig(env));
const partner = await createPartner(database.db, "Bench webhooks");
const { secret } = await createEndpoint(database.db, { partnerId: partner.id, mode: "test" }, { url }, true);
const worker = await startServer("npx", ["tsx", "scripts/worker.ts"], env, "");

// Record the events in batches of 100 (one transaction each), as the pipeline would.
const recordedAt = new Map<string, number>();
const started = Date.now();
for (let i = 0; i < total; i += 100) {
  await database.db.transaction(async (tx) => {
    for (let j = i; j < Math.min(total, i + 100); j++) {
      const event = await recordEvent(tx, queue, { partnerId: partner.id, mode: "test", type: "property.enriched", propertyId: null, payload: { n: j } });
      recordedAt.set(messageIdOf(event.id), event.createdAt.getTime());
    }
  });
}
while (receipts.size < total && Date.now() - started < 600_000) await new Promise((r) => setTimeout(r, 100));
const seconds = (Math.max(...receipts.values()) - started) / 1000;
const latencies = [...receipts].map(([id, at]) => at - recordedAt.get(id)!).sort((a, b) => a - b);
await stopServer(worker);
await queue.stop({ graceful: false, wait: true, timeout: 2000 });
await database.close();
await db.drop();

// Baseline: the same signed POSTs straight from a loop.
receipts.clear();
const agent = new http.Agent({ keepAlive: false });
const baselineStarted = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < total) {
      const id = `msg_baseline_${next++}`;
      const body = JSON.stringify({ type: "property.enriched", timestamp: new Date().toISOString(), data: { n: next } });
      await new Promise<void>((resolve, reject) => {
        const req = http.request(url, { method: "POST", agent, headers: webhookHeaders([secret], id, new Date(), body) }, (res) => res.resume().on("end", resolve));
        req.on("error", reject);
        req.end(body);
      });
    }
  }),
);
const baselineSeconds = (Date.now() - baselineStarted) / 1000;
receiver.close();

const round = (n: number) => Math.round(n * 10) / 10;
const result = {
  events: total,
  delivered: latencies.length,
  deliveriesPerSecond: round(latencies.length / seconds),
  eventToReceiptMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) },
  baselinePerSecond: round(total / baselineSeconds),
  settings: { workerProcesses: 1, pollSeconds: 0.5 },
};
console.log(result);
console.log("written", await writeResult("webhooks", result));
