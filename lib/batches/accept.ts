// Accepting and cancelling a batch. A batch is accepted in one transaction: its row, its items (a
// set-based insert per few thousand) and its first step job, so it exists whole or not at all.
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { bare, madeWithKey, rowsOf, schema, type Db, type DbOrTx } from "@/lib/db";
import {
  DomainError,
  emptyCounts,
  idempotencyConflict,
  type Batch,
  type BatchCounts,
  type Mode,
  type Scope,
  type WriteBudget,
} from "@/lib/domain";
import { enqueue, QUEUES, type JobData, type Queue } from "@/lib/queue";
import { recordEvent } from "@/lib/webhooks/events";
import { requireLiveAccess } from "@/lib/partners/live";
import type { Config } from "@/lib/config";
import { acceptItems, type ItemInput } from "./items";
import { batchRow, tally, toBatch, type BatchRow } from "./views";

const { batches, batchItems } = schema;

export interface BatchesDeps {
  db: Db;
  queue: Queue;
  config: Pick<Config, "BATCH_MAX_ACTIVE" | "BATCH_WINDOW" | "PUBLIC_BASE_URL">;
}

/** The job that works a batch through, one step at a time (./step.ts). */
export type BatchJob = JobData<typeof QUEUES.batch>;

export interface Submission {
  name: string | null;
  items: ItemInput[];
  /** The request's Idempotency-Key header, if it sent one. */
  idempotencyKey: string | null;
  /** A hash of everything the request sent (its body and how it was sent). */
  requestHash: string;
}

/**
 * Items per insert statement: bounds the statement's size, not the transaction's. Small enough that
 * each statement's JSON (about 60 bytes an item) stays in V8's young generation and dies there.
 */
const INSERT_CHUNK = 1_000;

/**
 * A portfolio submitted, from the API or the portal: live access checked (live mode), the write
 * counted, then the request or file read and checked (`read`: the API's JSON or CSV body, the
 * portal's CSV or XLSX file), then a new batch, or (a repeated Idempotency-Key) the one that key
 * created: `created` says which. A partner already at its cap of active batches is refused before
 * its file is read (reading it would cost what a file does, for a 409); unless the request's
 * Idempotency-Key (`idempotencyKey`, known before the body) made a batch, whose answer is kept.
 */
export async function submitBatch(
  deps: BatchesDeps,
  scope: Scope,
  budget: WriteBudget,
  read: () => Promise<Submission>,
  idempotencyKey: string | null = null,
): Promise<{ created: boolean; batch: Batch }> {
  await requireLiveAccess(deps.db, scope);
  await budget();
  if (!(idempotencyKey && (await madeWithKey(deps.db, batches, scope, idempotencyKey))))
    refuseAtCap(deps, scope, await activeBatches(deps.db, scope));
  return accept(deps, scope, await read());
}

/** The partner's batches queued or running in the mode. */
async function activeBatches(db: DbOrTx, scope: Scope): Promise<number> {
  const [{ active } = { active: 0 }] = rowsOf<{ active: number }>(
    await db.execute(sql`select count(*)::int as active from ${batches} where ${batches.partnerId} = ${scope.partnerId}
        and ${batches.mode} = ${scope.mode} and ${batches.status} in ('queued', 'running')`),
  );
  return active;
}

/** The 409 of a scope with `active` batches queued or running, `max` at most. */
export const tooManyActiveBatches = (active: number, max: number, mode: Mode) =>
  new DomainError(
    "too_many_active_batches",
    `${active} batches of yours are queued or running in ${mode} mode (at most ${max}): wait for one to complete, or cancel one.`,
  );

function refuseAtCap(deps: BatchesDeps, scope: Scope, active: number): void {
  if (active >= deps.config.BATCH_MAX_ACTIVE)
    throw tooManyActiveBatches(active, deps.config.BATCH_MAX_ACTIVE, scope.mode);
}

async function accept(
  deps: BatchesDeps,
  scope: Scope,
  submission: Submission,
): Promise<{ created: boolean; batch: Batch }> {
  const items = acceptItems(submission.items);
  const counts = emptyCounts(items.length);
  for (const item of items) counts[item.status]++;
  return deps.db.transaction(async (tx) => {
    // One submission of a partner and mode at a time: the active cap and the key hold under races.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`batches:${scope.partnerId}:${scope.mode}`}, 0))`,
    );
    const priorId = submission.idempotencyKey && (await madeWithKey(tx, batches, scope, submission.idempotencyKey));
    if (priorId) {
      const [prior] = await tx.select().from(batches).where(eq(batches.id, priorId));
      if (prior!.requestHash !== submission.requestHash) throw idempotencyConflict("batch");
      return { created: false, batch: toBatch(prior!) };
    }
    refuseAtCap(deps, scope, await activeBatches(tx, scope));
    const [row] = await tx
      .insert(batches)
      .values({
        ...scope,
        name: submission.name,
        counts,
        idempotencyKey: submission.idempotencyKey,
        requestHash: submission.requestHash,
      })
      .returning();
    const b = batchItems;
    for (let start = 0; start < items.length; start += INSERT_CHUNK) {
      const rows = items
        .slice(start, start + INSERT_CHUNK)
        .map((i) => [i.line, i.reference, i.externalId, i.status, i.error]);
      await tx.execute(sql`
        insert into ${b} (${bare(b.batchId)}, ${bare(b.line)}, ${bare(b.cadastralReference)}, ${bare(b.externalId)}, ${bare(b.status)}, ${bare(b.errorDetail)})
        select ${row!.id}::uuid, (r->>0)::int, r->>1, r->>2, r->>3, r->>4
        from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) as r`);
    }
    await enqueue(deps.queue, tx, QUEUES.batch, { batchId: row!.id, step: 1 } satisfies BatchJob);
    return { created: true, batch: toBatch(row!) };
  });
}

/**
 * Ends a batch's work (its row locked, so no step runs meanwhile): items not yet started are
 * cancelled; those registered finish enriching, and `batch.completed` follows when they have.
 * A batch already completed or cancelled is answered as it is. Null when it is not the caller's.
 * Counted as a write first, whatever it finds.
 */
export async function cancelBatch(
  deps: Pick<BatchesDeps, "db" | "queue">,
  scope: Scope,
  budget: WriteBudget,
  id: string,
): Promise<Batch | null> {
  await requireLiveAccess(deps.db, scope);
  await budget();
  if (!(await batchRow(deps.db, scope, id))) return null;
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(batches).where(eq(batches.id, id)).for("update");
    if (row!.status === "completed" || row!.status === "cancelled") return toBatch(row!);
    return toBatch(await cancelLocked(tx, deps.queue, row!));
  });
}

/** Cancels a batch whose row the transaction holds locked (a partner's cancel, or live access ended). */
export async function cancelLocked(tx: DbOrTx, queue: Queue, row: BatchRow): Promise<BatchRow> {
  await tx
    .update(batchItems)
    .set({ status: "cancelled" })
    .where(
      and(
        eq(batchItems.batchId, row.id),
        inArray(batchItems.status, ["pending", "duplicate"]),
        sql`${batchItems.propertyId} is null`,
      ),
    );
  return settle(tx, queue, row, { status: "cancelled" });
}

/**
 * Writes the batch's counts and status (and `set`) after a change to its items; when no item is
 * pending any more it is complete, and `batch.completed` is recorded in the same transaction.
 * `counts`: what a step made of the batch's counts (its items are counted again without them: a
 * cancel, once).
 */
export async function settle(
  tx: DbOrTx,
  queue: Queue,
  row: BatchRow,
  change: { status: BatchRow["status"]; set?: { step?: SQL; startedAt?: SQL | Date }; counts?: BatchCounts },
): Promise<BatchRow> {
  const counts = change.counts ?? (await tally(tx, row.id));
  const done = counts.pending === 0;
  const [updated] = await tx
    .update(batches)
    .set({
      ...change.set,
      counts,
      status: done && change.status === "running" ? "completed" : change.status,
      completedAt: done ? sql`now()` : null,
    })
    .where(eq(batches.id, row.id))
    .returning();
  if (done)
    await recordEvent(tx, queue, {
      partnerId: row.partnerId,
      mode: row.mode,
      type: "batch.completed",
      propertyId: null,
      payload: toBatch(updated!),
    });
  return updated!;
}
