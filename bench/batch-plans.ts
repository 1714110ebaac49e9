// bench/batch-plans: what a batch step's statements read, against the batch's size. A portfolio of
// `--items` is accepted on a fresh database (no workers: its properties stay enriching until this
// script marks some enriched), then `--steps` steps are run as the batch job runs them, each
// statement a step sends as raw SQL (tx.execute) first explained (EXPLAIN ANALYZE, BUFFERS) inside
// a savepoint rolled back, then run for real. Printed: each statement's plan, the rows and buffers
// it touched and its time; `--sizes` repeats it on portfolios of several sizes, so a statement whose
// cost grows with the batch shows as a plan that reads more.
//   npx tsx bench/batch-plans.ts [--sizes 10000,100000] [--steps 3]
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { runBatchStep, submitBatch, type BatchesDeps } from "@/lib/batches";
import { rowsOf, schema, type Db } from "@/lib/db";
import { createApp } from "@/server/app";
import { benchOptions, benchReference, freshDatabase, round, seedPartnerKeys, writeResult } from "./lib";

const { sizes: sizeList, steps } = benchOptions({ sizes: "10000,100000", steps: 3 });
const sizes = sizeList.split(",").map(Number);
const dialect = new PgDialect();

interface Explained {
  statement: string;
  ms: number;
  plan: string[];
}

/** The db with each transaction's raw statements explained (analyzed in a savepoint rolled back) before they run. */
function explaining(db: Db, into: Explained[]): Db {
  const explain = (tx: Db) =>
    new Proxy(tx, {
      get(target, key, receiver) {
        if (key !== "execute") return Reflect.get(target, key, receiver);
        return async (query: SQL) => {
          await target.execute(sql`savepoint plan`);
          const rows = rowsOf<{ "QUERY PLAN": string }>(
            await target.execute(sql`explain (analyze, buffers, timing off, summary on) ${query}`),
          );
          await target.execute(sql`rollback to savepoint plan`);
          const plan = rows.map((r) => r["QUERY PLAN"]);
          const ms = Number(/Execution Time: (\S+) ms/.exec(plan.join("\n"))?.[1] ?? Number.NaN);
          const text = dialect.sqlToQuery(query).sql.replace(/\s+/g, " ").trim();
          into.push({ statement: text.slice(0, 160), ms, plan: plan.filter((l) => !/^(Planning|Execution)/.test(l)) });
          return target.execute(query);
        };
      },
    });
  return new Proxy(db, {
    get(target, key, receiver) {
      if (key !== "transaction") return Reflect.get(target, key, receiver);
      return (fn: (tx: Db) => Promise<unknown>) => target.transaction((tx) => fn(explain(tx as unknown as Db)));
    },
  }) as Db;
}

const results: Record<string, { step: number; statements: Explained[] }[]> = {};
for (const size of sizes) {
  const database = await freshDatabase("finca_bench_plans");
  const app = await createApp({
    workers: false,
    env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "warn", BATCH_MAX_ITEMS: String(size) },
  });
  try {
    const {
      partnerIds: [partnerId],
    } = await seedPartnerKeys(database.url, 1);
    const scope = { partnerId: partnerId!, mode: "test" as const };
    const items = Array.from({ length: size }, (_, i) => ({
      reference: benchReference(i, "VK3799G"),
      externalId: null,
    }));
    const { batch } = await submitBatch(
      app,
      scope,
      async () => {},
      async () => ({
        name: "plans",
        items,
        idempotencyKey: null,
        requestHash: "plans",
      }),
    );
    const runs: { step: number; statements: Explained[] }[] = [];
    for (let n = 0; n < steps + 2; n++) {
      const [row] = rowsOf<{ step: number }>(
        await app.db.execute(
          sql`select ${schema.batches.step} as step from ${schema.batches} where ${schema.batches.id} = ${batch.batch_id}`,
        ),
      );
      const statements: Explained[] = [];
      await runBatchStep({ ...app, db: explaining(app.db, statements) } as BatchesDeps, {
        batchId: batch.batch_id,
        step: row!.step,
      });
      // Half of what is enriching finishes meanwhile: the next step moves those items on.
      await app.db.execute(sql`update ${schema.properties} set ${sql.identifier(schema.properties.status.name)} = 'enriched'
        where ${schema.properties.partnerId} = ${scope.partnerId} and ${schema.properties.status} = 'enriching'
          and random() < 0.5`);
      // The first steps fill the window (BATCH_WINDOW) and find nothing finished yet: shown are the later ones.
      if (n >= 2) runs.push({ step: row!.step, statements });
    }
    results[size] = runs;
    console.log(`\n=== a portfolio of ${size.toLocaleString("en")} items ===`);
    for (const { step, statements } of runs) {
      console.log(`--- step ${step}`);
      for (const s of statements) console.log(`${round(s.ms, 2)} ms  ${s.statement}\n  ${s.plan.join("\n  ")}`);
    }
  } finally {
    await app.close();
    await database.drop();
  }
}
console.log("written", await writeResult("batch-plans", { settings: { sizes, steps }, results }));
