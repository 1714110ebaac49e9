// Working a batch through (the batch job), one step at a time, each step one transaction on the
// batch's locked row: items whose property finished take its status; while fewer than BATCH_WINDOW
// of its items are enriching, the next ones (in input order) are registered exactly as creates
// would be, their enrichment queued in the durable pipeline; then the counts are written, and
// either the batch completes (`batch.completed`, and an email to the members who asked for one) or
// the next step is queued. A step that dies writes nothing and runs again; a job whose step number
// is not the batch's is stale and does nothing.
// A step's cost does not grow with its batch: each statement reads only the step's rows through a
// partial index (the enriching items, the next to register, the duplicates of the references
// taken; lib/db/schema.ts), and the counts are the batch's counts moved by what the step changed,
// not counted again.
// Keeping each batch's enriching items within a window lets batches of several partners take
// turns in the enrichment queue instead of one portfolio queueing 100,000 runs ahead of the rest.
import { eq, sql } from "drizzle-orm";
import { rowsOf, schema } from "@/lib/db";
import { registerReferences } from "@/lib/properties";
import { enqueue, QUEUES } from "@/lib/queue";
import { hasLiveAccess } from "@/lib/partners/live";
import { tellPortfolioCompleted } from "@/lib/email";
import type { BatchCounts, BatchItemStatus } from "@/lib/domain";
import { cancelLocked, settle, type BatchesDeps, type BatchJob } from "./accept";

const { batches, batchItems, properties } = schema;

/** Items registered by one step at most (one set-based statement each way). */
const STEP_ITEMS = 500;
/** While a batch only waits for its items' enrichment, how often a step looks at them. */
const WAIT_SECONDS = 1;

export async function runBatchStep(deps: BatchesDeps, job: BatchJob): Promise<void> {
  await deps.db.transaction(async (tx) => {
    let [row] = await tx.select().from(batches).where(eq(batches.id, job.batchId)).for("update");
    if (!row || row.step !== job.step || row.completedAt) return;
    // Live access refused or revoked since the batch was accepted: it stops here, as a cancel would.
    if (row.mode === "live" && row.status !== "cancelled" && !(await hasLiveAccess(tx, row.partnerId))) {
      row = await cancelLocked(tx, deps.queue, row);
      if (row.completedAt) return;
    }
    const i = batchItems;
    const counts: BatchCounts = { ...row.counts };
    const moved = (status: BatchItemStatus) => {
      counts.pending--;
      counts[status]++;
    };
    // Items whose property has reached its final status take it. Read first, one probe of the
    // properties' key per enriching item (the lateral's `limit` keeps the planner from flattening it
    // into a join, which it hashed over every property, a scan growing with the portfolio), then
    // written by the items' own key.
    const finished = rowsOf<{ line: number; status: BatchItemStatus }>(
      await tx.execute(sql`
        select ${i.line} as line, p.status from ${i}
        cross join lateral (
          select ${properties.status} as status from ${properties}
          where ${properties.id} = ${i.propertyId} and ${properties.status} <> 'enriching' limit 1
        ) p
        where ${i.batchId} = ${row.id} and ${i.status} = 'pending' and ${i.propertyId} is not null`),
    );
    if (finished.length) {
      await tx.execute(sql`
        update ${i} set ${sql.identifier(i.status.name)} = r.status
        from jsonb_to_recordset(${JSON.stringify(finished)}::jsonb) as r(line int, status text)
        where ${i.batchId} = ${row.id} and ${i.line} = r.line
          and ${i.line} = any(${sql.param(finished.map((f) => f.line))}::int[])`);
    }
    for (const { status } of finished) moved(status);
    let more = false;
    if (row.status !== "cancelled") {
      const [{ enriching } = { enriching: 0 }] = rowsOf<{ enriching: number }>(
        await tx.execute(sql`select count(*)::int as enriching from ${i}
          where ${i.batchId} = ${row.id} and ${i.status} = 'pending' and ${i.propertyId} is not null`),
      );
      const room = Math.min(STEP_ITEMS, deps.config.BATCH_WINDOW - enriching);
      if (room > 0) {
        const next = rowsOf<{ line: number; reference: string }>(
          await tx.execute(sql`
            select ${i.line} as line, ${i.cadastralReference} as reference from ${i}
            where ${i.batchId} = ${row.id} and ${i.status} = 'pending' and ${i.propertyId} is null
            order by ${i.line} limit ${room + 1}`),
        );
        more = next.length > room;
        const taken = next.slice(0, room);
        const registered = await registerReferences(
          tx,
          deps.queue,
          { partnerId: row.partnerId, mode: row.mode },
          taken.map((t) => t.reference),
        );
        const updates = taken.map(({ line, reference }) => {
          const { propertyId, status } = registered.get(reference)!;
          const itemStatus: BatchItemStatus = status === "enriching" ? "pending" : status;
          return { line, property_id: propertyId, status: itemStatus };
        });
        for (const { status } of updates) if (status !== "pending") moved(status);
        if (updates.length) {
          // The lines' range too: the primary key's scan then reads the step's lines whatever the
          // statistics say of the batch's size (stale ones, a batch just accepted, had the planner
          // hash the batch's every item).
          await tx.execute(sql`
            update ${i} set ${sql.identifier(i.propertyId.name)} = r.property_id, ${sql.identifier(i.status.name)} = r.status
            from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as r(line int, property_id uuid, status text)
            where ${i.batchId} = ${row.id} and ${i.line} = r.line
              and ${i.line} between ${taken[0]!.line} and ${taken.at(-1)!.line}`);
          // Later lines with the same reference point to the same property (the references named
          // twice over: the index's scan then reads only theirs, not the batch's every duplicate).
          await tx.execute(sql`
            update ${i} set ${sql.identifier(i.propertyId.name)} = r.property_id
            from jsonb_to_recordset(${JSON.stringify(taken.map((t) => ({ reference: t.reference, property_id: registered.get(t.reference)!.propertyId })))}::jsonb)
              as r(reference text, property_id uuid)
            where ${i.batchId} = ${row.id} and ${i.status} = 'duplicate' and ${i.cadastralReference} = r.reference
              and ${i.cadastralReference} = any(${sql.param(taken.map((t) => t.reference))}::text[])`);
        }
      }
    }
    const updated = await settle(tx, deps.queue, row, {
      status: row.status === "queued" ? "running" : row.status,
      set: { step: sql`${batches.step} + 1`, startedAt: row.startedAt ?? sql`now()` },
      counts,
    });
    if (updated.status === "completed")
      await tellPortfolioCompleted(tx, updated, { base: deps.config.PUBLIC_BASE_URL });
    if (updated.completedAt) return;
    // More to register at once: straight on; otherwise look again once enrichment has moved.
    await enqueue(deps.queue, tx, QUEUES.batch, { batchId: row.id, step: updated.step } satisfies BatchJob, {
      delaySeconds: more ? 0 : WAIT_SECONDS,
    });
  });
}
