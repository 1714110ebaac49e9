// bench/chaos: the pipeline benchmark's run with crashes. 10,000 creates in a burst through the
// durable pipeline (2 worker processes); at 40 % of the creates the API server and worker 0 are
// SIGKILLed and restarted; when 60 % of the properties are final, worker 1 is SIGKILLed and
// restarted. Then every property answered 201 (and any committed whose answer was lost) must end
// final, every property.enriched must reach the receiver at least once, duplicates only under the
// same webhook-id, nothing received that no event carries. Exits 1 if an invariant fails.
// Baseline in the same run: the same run without crashes (time until all final and received).
//   npx tsx bench/chaos.ts [--properties 10000] [--workers 2] [--down-seconds 2] [--no-baseline]
import { sql } from "drizzle-orm";
import { rowsOf } from "@/lib/db";
import { benchOptions, load, PipelineStack, round, sleep, violations, writeResult, type Audit } from "./lib";
import { killGroup } from "@/test/support/processes";

const values = benchOptions({
  properties: 10000,
  workers: 2,
  concurrency: 32,
  pool: 10,
  "down-seconds": 2,
  "timeout-seconds": 900,
  "no-baseline": false,
});
const total = values.properties;
const workers = Math.max(2, values.workers);
const downMs = values["down-seconds"] * 1000;
// Expired jobs of a killed worker come back within about 15 s instead of 75 s.
const env = { JOB_EXPIRE_SECONDS: "10", JOB_MAINTENANCE_SECONDS: "5" };

interface ChaosEvent {
  at: number;
  what: string;
}

async function run(withChaos: boolean) {
  const stack = await PipelineStack.start({
    prefix: "finca_bench_chaos",
    partners: Math.ceil(total / 90),
    workers,
    poolSize: values.pool,
    env,
  });
  try {
    const created = new Set<string>();
    let answered = 0;
    const started = Date.now();
    const events: ChaosEvent[] = [];
    const note = (what: string) => {
      events.push({ at: round((Date.now() - started) / 1000), what });
      console.log(`  ${events.at(-1)!.at}s ${what}`);
    };
    const creates = load({
      url: stack.url,
      seconds: 900,
      concurrency: values.concurrency,
      stopAfter: total,
      request: stack.createRequest,
      // While the API is down, connections are refused: send those again (nothing reached it).
      retryOn: ["ECONNREFUSED"],
      onResponse: (_, status, body) => {
        answered++;
        if (status === 201 || status === 200) created.add((JSON.parse(body) as { property_id: string }).property_id);
      },
    });
    let apiKilled = false;
    let worker1Killed = false;
    const restarts: Promise<void>[] = [];
    const restartErrors: string[] = [];
    // Runs beside the polling; a failed restart is recorded (an unhandled rejection would end the
    // process without stopping the children or dropping the database).
    const crash = (what: string, kill: () => Promise<void>, restart: () => Promise<void>) =>
      restarts.push(
        (async () => {
          await kill();
          note(`SIGKILL ${what}`);
          await sleep(downMs);
          await restart();
          note(`restarted ${what}`);
        })().catch(
          (error: Error) => void restartErrors.push(`${what} did not restart: ${error.message.slice(0, 300)}`),
        ),
      );
    const {
      load: burst,
      finalAt,
      receivedAt,
    } = await stack.settle(creates, values["timeout-seconds"] * 1000, async (p) => {
      if (!withChaos) return;
      if (!apiKilled && answered >= total * 0.4) {
        apiKilled = true;
        crash(
          "API server",
          () => killGroup(stack.api!),
          () => stack.startApi(),
        );
        crash(
          "worker 0",
          () => killGroup(stack.workers[0]!),
          () => stack.startWorker(0),
        );
      }
      if (!worker1Killed && apiKilled && p.final >= total * 0.6) {
        worker1Killed = true;
        crash(
          "worker 1",
          () => killGroup(stack.workers[1]!),
          () => stack.startWorker(1),
        );
      }
    });
    await Promise.all(restarts);
    const audit = await stack.audit();
    const rows = rowsOf<{ id: string; status: string }>(
      await stack.database.db.execute(sql`select id::text, status from properties`),
    );
    const inDb = new Map(rows.map((r) => [r.id, r.status]));
    const lost = [...created].filter((id) => !inDb.has(id)).length;
    const answeredNotFinal = [...created].filter((id) => inDb.get(id) === "enriching").length;
    const failedCreates = Object.entries(burst.statuses)
      .filter(([s]) => s.startsWith("error:"))
      .reduce((n, [, c]) => n + c, 0);
    const problems = [...restartErrors, ...violations(audit)];
    if (lost) problems.push(`${lost} properties answered 201/200 are not in the database`);
    if (answeredNotFinal) problems.push(`${answeredNotFinal} properties answered 201/200 are not final`);
    if (finalAt === null || receivedAt === null) problems.push(`not settled within ${values["timeout-seconds"]} s`);
    return {
      chaos: withChaos,
      events,
      creates: {
        answered: created.size,
        failedAtClient: failedCreates,
        committedWithoutAnswer: inDb.size - created.size,
        statuses: burst.statuses,
      },
      finalSeconds: finalAt && round((finalAt - started) / 1000),
      receivedSeconds: receivedAt && round((receivedAt - started) / 1000),
      duplicates: audit.received.duplicates,
      lost,
      audit: audit as Audit,
      violations: problems,
      rssMiB: stack.rss(),
    };
  } finally {
    await stack.stop();
  }
}

const chaos = await run(true);
const baseline = values["no-baseline"] ? null : await run(false);
console.log(
  `\n${total} properties, ${workers} workers, API + worker 0 killed at 40 % of the creates, worker 1 at 60 % final, down ${downMs / 1000} s`,
);
console.log(
  "run | answered | failed at client | committed w/o answer | all final s | all received s | duplicates (same id) | missing | invariants",
);
for (const r of [chaos, baseline].filter((r) => r !== null)) {
  console.log(
    [
      r.chaos ? "chaos" : "baseline",
      r.creates.answered,
      r.creates.failedAtClient,
      r.creates.committedWithoutAnswer,
      r.finalSeconds,
      r.receivedSeconds,
      r.duplicates,
      r.audit.missing,
      r.violations.length ? r.violations.join("; ") : "ok",
    ].join(" | "),
  );
}
console.log(
  "written",
  await writeResult("chaos", {
    settings: { properties: total, workers, downSeconds: downMs / 1000, ...env },
    chaos,
    baseline,
  }),
);
if (chaos.violations.length || baseline?.violations.length) process.exit(1);
