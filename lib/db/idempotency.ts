// What an Idempotency-Key made: the row a partner's earlier request created with it, while the key
// lives (IDEMPOTENCY_HOURS). Properties, webhook endpoints and batches keep their keys alike.
import { sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { IDEMPOTENCY_HOURS, type Scope } from "@/lib/domain";
import type { DbOrTx } from "./index";
import { bare, rowsOf } from "./index";

/** A table whose rows a partner makes with an Idempotency-Key. */
export type KeyedTable = PgTable & {
  id: AnyPgColumn;
  partnerId: AnyPgColumn;
  mode: AnyPgColumn;
  idempotencyKey: AnyPgColumn;
  createdAt: AnyPgColumn;
};

/**
 * The id of the row this partner and mode made with `key` within the key's life, or null. A row
 * whose key has outlived it gives the key up, so the key is free again. Whether the request is the
 * same one is the caller's question (each compares what it kept of the first).
 */
export async function madeWithKey(db: DbOrTx, table: KeyedTable, scope: Scope, key: string): Promise<string | null> {
  const [prior] = rowsOf<{ id: string; fresh: boolean }>(
    await db.execute(sql`select ${table.id} as id,
        ${table.createdAt} > now() - make_interval(hours => ${IDEMPOTENCY_HOURS}) as fresh
      from ${table}
      where ${table.partnerId} = ${scope.partnerId} and ${table.mode} = ${scope.mode}
        and ${table.idempotencyKey} = ${key}`),
  );
  if (!prior) return null;
  if (prior.fresh) return prior.id;
  await db.execute(sql`update ${table} set ${bare(table.idempotencyKey)} = null where ${table.id} = ${prior.id}`);
  return null;
}
