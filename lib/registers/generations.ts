// A copy's generations, one mechanism for both kinds of copy the index keeps (a dataset's records in
// register_records, a municipality's cadastre copy in cadastre_records): an import claims the next
// generation, writes its records under it, and only once everything was written switches the copy
// to it in one statement, then deletes the older generations. A failed write deletes its own records
// and leaves the error on the copy; an import a later one overtook (the switch finds a newer
// generation live) discards its records: lookups always see one whole copy.
import { and, eq, lt, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/db";
import { messageOf } from "@/lib/domain";

type CopyColumns = {
  generation: AnyPgColumn;
  lastGeneration: AnyPgColumn;
  lastAttemptAt: AnyPgColumn;
  lastError: AnyPgColumn;
};

export interface Copy<C extends PgTable & CopyColumns> {
  /** The table of copies, one row each (created by the first import). */
  table: C;
  /** The copy's row: its key's values, its key's columns (the conflict target), and the condition that selects it. */
  key: { values: Record<string, unknown>; columns: AnyPgColumn[]; where: SQL };
  /** The copy's records: their table, its generation column, and the condition that selects the copy's. */
  records: { table: PgTable; generation: AnyPgColumn; where: SQL };
}

export interface Generation<T> {
  generation: number;
  written: T;
  /** A later import switched first: this one's records were discarded. */
  superseded: boolean;
}

/**
 * Writes a new generation of `copy` with `write`, then switches the copy to it with `done`'s values
 * (its counts, its date…); the copy's error is cleared on success and set on failure.
 */
export async function writeGeneration<C extends PgTable & CopyColumns, T>(
  db: Db,
  copy: Copy<C>,
  write: (generation: number) => Promise<T>,
  done: (written: T) => Record<string, unknown>,
): Promise<Generation<T>> {
  const { table, key, records } = copy;
  const now = new Date();
  // The typed builders see the table's own columns; these are the ones every copy table has.
  const [claimed] = (await db
    .insert(table)
    .values({ ...key.values, lastGeneration: 1, lastAttemptAt: now } as never)
    .onConflictDoUpdate({
      target: key.columns,
      set: { lastGeneration: sql`${table.lastGeneration} + 1`, lastAttemptAt: now } as PgUpdateSetSource<C>,
    })
    .returning({ generation: table.lastGeneration })) as { generation: number }[];
  const generation = claimed!.generation;
  const discard = (older: boolean) =>
    db
      .delete(records.table)
      .where(and(records.where, older ? lt(records.generation, generation) : eq(records.generation, generation)));
  let written: T;
  try {
    written = await write(generation);
  } catch (error) {
    await discard(false);
    await db
      .update(table)
      .set({ lastError: messageOf(error) } as PgUpdateSetSource<C>)
      .where(key.where);
    throw error;
  }
  const switched = await db
    .update(table)
    .set({ ...done(written), generation, lastError: null } as PgUpdateSetSource<C>)
    .where(and(key.where, lt(table.generation, generation)))
    .returning({ generation: table.generation });
  if (!switched.length) {
    await discard(false);
    return { generation, written, superseded: true };
  }
  await discard(true);
  return { generation, written, superseded: false };
}
