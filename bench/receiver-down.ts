// bench/receiver-down: 2,000 properties through the durable pipeline while the webhook receiver is
// down (connections refused) for the first 20 s and until a delivery was refused, then back. Every
// property.enriched must be delivered afterwards, and the attempt log must show each delivery's
// attempts: as many rows as the delivery counts, the failed ones `refused`, the last one a 2xx.
// Test-mode endpoints retry on WEBHOOK_RETRY_SCHEDULE_TEST (1, 2, 4, 8, 16, 32, 64 s), so an
// outage up to about a minute is bridged. Baseline in the same run: the same 2,000 with the
// receiver up all along. Exits 1 if an invariant fails.
//   npx tsx bench/receiver-down.ts [--properties 2000] [--down-seconds 20] [--workers 1]
import { count, eq, sql } from "drizzle-orm";
import { rowsOf, schema } from "@/lib/db";
import { benchOptions, load, PipelineStack, round, sleep, violations, writeResult } from "./lib";

const { webhookAttempts } = schema;

/** Attempts logged as refused so far (the receiver is down). */
async function refusedAttempts(stack: PipelineStack): Promise<number> {
  const refused = eq(webhookAttempts.errorClass, "refused");
  const [row] = await stack.database.db.select({ n: count() }).from(webhookAttempts).where(refused);
  return row!.n;
}

const values = benchOptions({
  properties: 2000,
  "down-seconds": 20,
  workers: 1,
  concurrency: 32,
  pool: 10,
  "timeout-seconds": 600,
});
const total = values.properties;
const downMs = values["down-seconds"] * 1000;

async function run(down: boolean) {
  const stack = await PipelineStack.start({
    prefix: "finca_bench_rdown",
    partners: Math.ceil(total / 90),
    workers: values.workers,
    poolSize: values.pool,
  });
  try {
    if (down) await stack.receiver.down();
    const started = Date.now();
    let upAt: number | null = null;
    let upError: string | null = null;
    // Back after the outage's length, and not before a delivery was refused: on a slow host the
    // first delivery may come later than that, and an outage nobody met tests nothing.
    const back = down
      ? (async () => {
          await sleep(downMs);
          while (!(await refusedAttempts(stack))) await sleep(250);
          await stack.receiver.up().then(
            () => void (upAt = Date.now()),
            (error: Error) => void (upError = error.message),
          );
        })()
      : Promise.resolve();
    const creates = load({
      url: stack.url,
      seconds: 600,
      concurrency: values.concurrency,
      stopAfter: total,
      request: stack.createRequest,
    });
    const { finalAt, receivedAt } = await stack.settle(Promise.all([creates, back]), values["timeout-seconds"] * 1000);
    const audit = await stack.audit();
    // The attempt log, per delivery: its rows against its count, what the failed ones were, the last one's status.
    const [log] = rowsOf<{
      deliveries: number;
      retried: number;
      max_attempts: number;
      attempt_rows: number;
      failed_rows: number;
      failed_not_refused: number;
      last_not_2xx: number;
    }>(
      await stack.database.db.execute(sql`
        with last as (
          select distinct on (delivery_id) delivery_id, status_code from webhook_attempts order by delivery_id, id desc
        )
        select (select count(*)::int from webhook_deliveries) as deliveries,
               (select count(*)::int from webhook_deliveries where attempts > 1) as retried,
               (select coalesce(max(attempts), 0)::int from webhook_deliveries) as max_attempts,
               (select count(*)::int from webhook_attempts) as attempt_rows,
               (select count(*)::int from webhook_attempts where status_code is null or status_code >= 300) as failed_rows,
               (select count(*)::int from webhook_attempts where (status_code is null or status_code >= 300) and error_class is distinct from 'refused') as failed_not_refused,
               (select count(*)::int from last where status_code is null or status_code not between 200 and 299) as last_not_2xx`),
    );
    const problems = violations(audit);
    if (upError) problems.push(`the receiver did not come back: ${upError}`);
    if (log!.last_not_2xx) problems.push(`${log!.last_not_2xx} deliveries whose last logged attempt is not a 2xx`);
    if (log!.failed_not_refused) problems.push(`${log!.failed_not_refused} failed attempts not logged as refused`);
    if (down && !log!.retried) problems.push("no delivery was retried: the outage was not seen");
    if (finalAt === null || receivedAt === null) problems.push(`not settled within ${values["timeout-seconds"]} s`);
    return {
      receiverDown: down ? downMs / 1000 : 0,
      finalSeconds: finalAt && round((finalAt - started) / 1000),
      receivedSeconds: receivedAt && round((receivedAt - started) / 1000),
      // From the receiver's return to the last first receipt.
      recoverySeconds: upAt !== null && receivedAt !== null ? round((receivedAt - upAt) / 1000) : null,
      attemptLog: log,
      duplicates: audit.received.duplicates,
      audit,
      violations: problems,
    };
  } finally {
    await stack.stop();
  }
}

const outage = await run(true);
const baseline = await run(false);
console.log(`\n${total} properties, receiver down for the first ${downMs / 1000} s, test-mode webhook schedule`);
console.log(
  "run | all final s | all received s | recovery s | deliveries | retried | max attempts | attempt rows | failed (refused) | dup | missing | invariants",
);
for (const r of [outage, baseline]) {
  const l = r.attemptLog!;
  console.log(
    [
      r.receiverDown ? `down ${r.receiverDown}s` : "baseline",
      r.finalSeconds,
      r.receivedSeconds,
      r.recoverySeconds ?? "-",
      l.deliveries,
      l.retried,
      l.max_attempts,
      l.attempt_rows,
      l.failed_rows,
      r.duplicates,
      r.audit.missing,
      r.violations.length ? r.violations.join("; ") : "ok",
    ].join(" | "),
  );
}
console.log(
  "written",
  await writeResult("receiver-down", {
    settings: { properties: total, downSeconds: downMs / 1000, workers: values.workers },
    outage,
    baseline,
  }),
);
if (outage.violations.length || baseline.violations.length) process.exit(1);
