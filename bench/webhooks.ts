// bench/webhooks: a portfolio's webhooks to a fast local receiver (bench/lib's verifying
// WebhookReceiver), through the lean API server and worker processes on PostgreSQL:
//   1. the batch: `--items` items (sandbox registers at 50 ms) to one partner with one endpoint:
//      every property.enriched and the batch.completed received, none lost, none duplicated, and
//      the lag from the last item going final (its property.enriched recorded) to the last webhook
//      received;
//   2. the backlog: the same events scheduled at once to a second endpoint of the partner (its
//      deliveries and their jobs in one transaction, as a replay would): deliveries per second
//      from the commit to the last received, against
//   3. the baseline, in the same run: the same bodies signed and POSTed from a loop in a process of
//      its own (bench/webhook-sender.ts, the same kept-alive sender) at the same concurrency (what
//      the workers may have in flight to one endpoint: `--concurrency` × workers) to a receiver of
//      its own; `--baseline-items` of them.
//   npx tsx bench/webhooks.ts [--items 100000] [--workers 1] [--concurrency 10] [--baseline-items 20000]
import { loadavg } from "node:os";
import { eq, sql } from "drizzle-orm";
import { bare, rowsOf, schema } from "@/lib/db";
import type { Batch } from "@/lib/domain";
import { jobsInsertSql, QUEUES } from "@/lib/queue";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { messageIdOf } from "@/lib/webhooks/events";
import { runNode } from "@/test/support/processes";
import { benchOptions, benchReference, PipelineStack, round, sleep, WebhookReceiver, writeResult } from "./lib";

const values = benchOptions({
  items: 100000,
  workers: 1,
  concurrency: 10,
  "baseline-items": 20000,
  pool: 10,
  "timeout-seconds": 3600,
});
const { items, workers, concurrency } = values;
const timeoutMs = values["timeout-seconds"] * 1000;
const { events, webhookDeliveries: d, webhookEndpoints, webhookAttempts } = schema;

const stack = await PipelineStack.start({
  prefix: "finca_bench_webhooks",
  partners: 1,
  workers,
  poolSize: values.pool,
  env: {
    BATCH_MAX_ITEMS: String(Math.max(items, 100_000)),
    WEBHOOK_PARTNER_CONCURRENCY: String(concurrency),
    LOG_LEVEL: "warn",
  },
});
const backlogReceiver = await WebhookReceiver.start();
const baselineReceiver = await WebhookReceiver.start();
const db = stack.database.db;
const uptime = () => loadavg().map((n) => round(n, 2));

/** Waits until `receiver` has `count` distinct webhooks, or the time is up. */
async function receivedAll(receiver: WebhookReceiver, count: number, deadline: number) {
  while (receiver.receipts.size < count && Date.now() < deadline) await sleep(100);
}

/** How a receiver's receipts compare with the partner's events: lost (never received) and duplicated. */
async function tally(receiver: WebhookReceiver) {
  const ids = new Set(
    rowsOf<{ id: string }>(await db.execute(sql`select ${events.id} as id from ${events}`)).map((e) =>
      messageIdOf(e.id),
    ),
  );
  return {
    distinct: receiver.receipts.size,
    lost: [...ids].filter((id) => !receiver.receipts.has(id)).length,
    duplicated: receiver.duplicates,
    unknown: [...receiver.receipts.keys()].filter((id) => !ids.has(id)).length,
    badSignatures: receiver.badSignatures,
  };
}

let result: object;
try {
  const headers = { "X-API-Key": stack.keys[0]! };
  // ---- 1. the batch ----
  const csv = `cadastral_reference,external_id\n${Array.from({ length: items }, (_, i) => `${benchReference(i, "VK3799G")},row-${i}`).join("\n")}\n`;
  const accepted = await fetch(`${stack.url}/api/v1/partner-api/batches?name=bench`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "text/csv" },
    body: csv,
  });
  if (accepted.status !== 202) throw new Error(`POST /batches answered ${accepted.status}: ${await accepted.text()}`);
  let batch = (await accepted.json()) as Batch;
  const started = Date.now();
  const deadline = started + timeoutMs;
  while (!batch.completed_at && Date.now() < deadline) {
    await sleep(1000);
    batch = (await (
      await fetch(`${stack.url}/api/v1/partner-api/batches/${batch.batch_id}`, { headers })
    ).json()) as Batch;
  }
  const loadAtFinal = uptime();
  const [{ n: eventCount, last } = { n: 0, last: 0 }] = rowsOf<{ n: number; last: number }>(
    await db.execute(sql`select count(*)::int as n,
      (extract(epoch from max(${events.createdAt}) filter (where ${events.type} = 'property.enriched')) * 1000)::float8 as last
      from ${events}`),
  );
  await receivedAll(stack.receiver, eventCount, deadline);
  const lastReceivedAt = stack.receiver.lastFirstAt;
  const live = {
    finalSeconds: round((last - started) / 1000),
    itemsPerSecond: round(items / ((last - started) / 1000)),
    events: eventCount,
    ...(await tally(stack.receiver)),
    lagSeconds: round((lastReceivedAt - last) / 1000, 2),
    withinAMinute: lastReceivedAt - last <= 60_000,
  };
  console.log(
    `batch: ${items} items final in ${live.finalSeconds} s (${live.itemsPerSecond}/s); ${live.distinct} of ${eventCount} webhooks received, ${live.lost} lost, ${live.duplicated} duplicated; the last ${live.lagSeconds} s after the last item went final`,
  );

  // ---- 2. the backlog: every event again, to a second endpoint, all at once ----
  const [{ partnerId } = { partnerId: "" }] = await db
    .select({ partnerId: webhookEndpoints.partnerId })
    .from(webhookEndpoints);
  const { endpoint, secret } = await createEndpoint(
    db,
    { partnerId, mode: "test" },
    { url: backlogReceiver.url("/backlog") },
    { allowPrivate: true, maxEndpoints: 20 },
  );
  backlogReceiver.expect("/backlog", secret);
  // In statements of 10,000 events (one of 100,000 outlasted the query timeout on a loaded
  // machine), one transaction: the workers see the whole backlog at once.
  await db.transaction(async (tx) => {
    for (let after = ""; ; ) {
      const [chunk] = rowsOf<{ last: string | null }>(
        await tx.execute(sql`
          with event as (
            select ${events.id} as id from ${events} where ${events.id}::text > ${after} order by ${events.id}::text limit 10000
          ), delivery as (
            insert into ${d} (${bare(d.eventId)}, ${bare(d.endpointId)}, ${bare(d.messageId)}, ${bare(d.nextAttemptAt)})
            select id, ${endpoint.id}, 'msg_' || replace(id::text, '-', ''), now() from event
            returning ${bare(d.id)} as id, ${bare(d.messageId)} as message_id
          ), job as (${jobsInsertSql(sql`(select json_agg(json_build_object('name', ${QUEUES.deliverWebhook}::text, 'data',
              json_build_object('deliveryId', id, 'messageId', message_id, 'attempt', 0, 'step', 0, 'trigger', 'scheduled')))
            from delivery)`)})
          select max(id::text) as last from event`),
      );
      if (!chunk?.last) break;
      after = chunk.last;
    }
  });
  const committed = Date.now();
  await receivedAll(backlogReceiver, eventCount, committed + timeoutMs);
  const backlogSeconds = (backlogReceiver.lastFirstAt - committed) / 1000;
  const loadAfterBacklog = uptime();
  // A worker writes a success just after its receipt: the attempt log once every delivery is written.
  while ((await db.$count(d, eq(d.status, "pending"))) && Date.now() < committed + timeoutMs) await sleep(100);
  const [{ n: attempts } = { n: 0 }] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from ${webhookAttempts} join ${d} on ${d.id} = ${webhookAttempts.deliveryId}
      where ${d.endpointId} = ${endpoint.id}`),
  );
  const pending = await db.$count(d, eq(d.status, "pending"));
  const backlog = {
    deliveries: eventCount,
    seconds: round(backlogSeconds),
    perSecond: round(eventCount / backlogSeconds),
    attempts,
    stillPending: pending,
    ...(await tally(backlogReceiver)),
  };

  // ---- 3. the baseline ----
  baselineReceiver.expect("/baseline", secret);
  const sender = await runNode(
    "bench/webhook-sender.ts",
    [
      "--url",
      baselineReceiver.url("/baseline"),
      "--secret",
      secret,
      "--count",
      String(values["baseline-items"]),
      "--concurrency",
      String(concurrency * workers),
    ],
    { env: { DATABASE_URL: stack.db.url }, timeoutMs },
  );
  if (sender.code !== 0) throw new Error(`the baseline's sender failed:\n${sender.stderr}`);
  const sent = JSON.parse(sender.stdout.trim().split("\n").at(-1)!) as { sent: number; ok: number; seconds: number };
  const baseline = {
    concurrency: concurrency * workers,
    ...sent,
    seconds: round(sent.seconds),
    perSecond: round(sent.ok / sent.seconds),
    received: baselineReceiver.receipts.size,
    badSignatures: baselineReceiver.badSignatures,
  };
  const ratio = round(backlog.perSecond / baseline.perSecond, 2);
  result = {
    settings: {
      items,
      workers,
      concurrencyPerWorker: concurrency,
      registerLatencyMs: 50,
      baselineItems: values["baseline-items"],
    },
    batch: live,
    backlog,
    baseline,
    ratio,
    atLeast: 0.5,
    // The machine is shared: its load averages (1, 5, 15 min) beside the figures.
    loadAverage: { batchFinal: loadAtFinal, afterBacklog: loadAfterBacklog },
  };
  console.log(
    [
      `backlog: ${backlog.deliveries} deliveries in ${backlog.seconds} s (${backlog.perSecond}/s), ${backlog.attempts} attempts, ${backlog.lost} lost, ${backlog.duplicated} duplicated`,
      `baseline: ${baseline.perSecond}/s (${baseline.ok} of ${baseline.sent} signed POSTs, ${baseline.concurrency} loops) → ratio ${ratio} (at least 0.5)`,
      `load average (1, 5, 15 min): ${loadAtFinal.join(", ")} when the batch was final, ${loadAfterBacklog.join(", ")} after the backlog`,
    ].join("\n"),
  );
  if (
    live.lost ||
    live.duplicated ||
    live.unknown ||
    live.badSignatures ||
    backlog.lost ||
    backlog.duplicated ||
    backlog.badSignatures ||
    baseline.ok !== baseline.sent
  )
    process.exitCode = 1;
} finally {
  await backlogReceiver.close();
  await baselineReceiver.close();
  await stack.stop();
}
console.log("written", await writeResult("webhooks", result!));
