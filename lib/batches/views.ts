// Reading batches and their items as partners see them, always within one partner and mode.
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import { rowsOf, schema, type DbOrTx } from "@/lib/db";
import {
  type Batch,
  BatchCounts,
  emptyCounts,
  inSchemaOrder,
  isUuid,
  type BatchItem,
  type BatchItemStatus,
  type Scope,
} from "@/lib/domain";

const { batches, batchItems } = schema;
export type BatchRow = typeof batches.$inferSelect;
export type BatchItemRow = typeof batchItems.$inferSelect;

export function toBatch(b: BatchRow): Batch {
  return {
    batch_id: b.id,
    name: b.name,
    status: b.status,
    // jsonb's order, put back in the schema's.
    counts: inSchemaOrder(BatchCounts, b.counts),
    created_at: b.createdAt.toISOString(),
    started_at: b.startedAt?.toISOString() ?? null,
    completed_at: b.completedAt?.toISOString() ?? null,
  };
}

export function toItem(
  i: Pick<BatchItemRow, "line" | "cadastralReference" | "externalId" | "status" | "propertyId" | "errorDetail">,
): BatchItem {
  return {
    line: i.line,
    cadastral_reference: i.cadastralReference,
    external_id: i.externalId,
    status: i.status,
    property_id: i.propertyId,
    error: i.status === "invalid" ? { code: "invalid_cadastral_reference", detail: i.errorDetail ?? "" } : null,
  };
}

const inScope = (scope: Scope) => and(eq(batches.partnerId, scope.partnerId), eq(batches.mode, scope.mode));

/** The batch row, or null when absent or another partner's or mode's. */
export async function batchRow(db: DbOrTx, scope: Scope, id: string): Promise<BatchRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(batches)
    .where(and(eq(batches.id, id), inScope(scope)));
  return row ?? null;
}

export async function getBatch(db: DbOrTx, scope: Scope, id: string): Promise<Batch | null> {
  const row = await batchRow(db, scope, id);
  return row && toBatch(row);
}

export interface Page<T, Cursor = string> {
  data: T[];
  has_more: boolean;
  next_starting_after: Cursor | null;
}

/** Newest first; the cursor is a batch id of the previous page. Null for a cursor outside the scope. */
export async function listBatches(
  db: DbOrTx,
  scope: Scope,
  o: { limit: number; startingAfter?: string },
): Promise<Page<Batch> | null> {
  if (o.startingAfter && !(await batchRow(db, scope, o.startingAfter))) return null;
  const rows = await db
    .select()
    .from(batches)
    .where(
      and(
        inScope(scope),
        // Compared in SQL: JavaScript dates would lose the microseconds that order rows.
        o.startingAfter
          ? sql`(${batches.createdAt}, ${batches.id}) < (select ${batches.createdAt}, ${batches.id} from ${batches} where ${batches.id} = ${o.startingAfter})`
          : undefined,
      ),
    )
    .orderBy(desc(batches.createdAt), desc(batches.id))
    .limit(o.limit + 1);
  const page = rows.slice(0, o.limit);
  return {
    data: page.map(toBatch),
    has_more: rows.length > o.limit,
    next_starting_after: rows.length > o.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** A batch's items in input order from after line `startingAfter`; null when the batch is not the caller's. */
export async function listItems(
  db: DbOrTx,
  scope: Scope,
  id: string,
  o: { limit: number; startingAfter?: number; status?: BatchItemStatus; externalId?: string },
): Promise<Page<BatchItem, number> | null> {
  if (!(await batchRow(db, scope, id))) return null;
  const rows = await db
    .select()
    .from(batchItems)
    .where(
      and(
        eq(batchItems.batchId, id),
        o.status ? eq(batchItems.status, o.status) : undefined,
        o.externalId !== undefined ? eq(batchItems.externalId, o.externalId) : undefined,
        o.startingAfter !== undefined ? gt(batchItems.line, o.startingAfter) : undefined,
      ),
    )
    .orderBy(asc(batchItems.line))
    .limit(o.limit + 1);
  const page = rows.slice(0, o.limit);
  const more = rows.length > o.limit;
  return { data: page.map(toItem), has_more: more, next_starting_after: more ? page.at(-1)!.line : null };
}

/** The batch's items per status, from the items themselves. */
export async function tally(db: DbOrTx, batchId: string): Promise<BatchCounts> {
  const rows = rowsOf<{ status: BatchItemStatus; n: number }>(
    await db.execute(sql`select ${batchItems.status} as status, count(*)::int as n from ${batchItems}
      where ${batchItems.batchId} = ${batchId} group by ${batchItems.status}`),
  );
  const counts = emptyCounts();
  for (const { status, n } of rows) {
    counts[status] = n;
    counts.total += n;
  }
  return counts;
}

/** An item of one of the partner's portfolios, with the portfolio it belongs to. */
export interface FoundItem {
  batch: Pick<Batch, "batch_id" | "name" | "created_at">;
  item: BatchItem;
}

/**
 * The items carrying the partner's own id `externalId` (a loan number) across its portfolios in the
 * scope's mode, newest portfolio first, at most `limit`. Exact match: the id is the partner's key,
 * and equality uses the batch_items_external_id index.
 */
export async function findItemsByExternalId(
  db: DbOrTx,
  scope: Scope,
  externalId: string,
  limit: number,
): Promise<FoundItem[]> {
  const rows = await db
    .select({ batch: batches, item: batchItems })
    .from(batchItems)
    .innerJoin(batches, eq(batches.id, batchItems.batchId))
    .where(and(eq(batchItems.externalId, externalId), inScope(scope)))
    .orderBy(desc(batches.createdAt), desc(batches.id), asc(batchItems.line))
    .limit(limit);
  return rows.map(({ batch, item }) => ({
    batch: { batch_id: batch.id, name: batch.name, created_at: batch.createdAt.toISOString() },
    item: toItem(item),
  }));
}
