// Rows as jsonb records, for statements that insert many rows (or rows of several tables) in one
// round trip: the rows travel as one JSON parameter each, `jsonb_populate_record(set)` turns them
// back into the table's row type, and the statement's text does not depend on how many there are,
// so it is built once and prepared once per connection.
import { getTableColumns, getTableName } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

type Columns = readonly (readonly [string, PgColumn])[];
const columnsByTable = new WeakMap<PgTable, Columns>();

/**
 * The columns we write (identity columns are the database's), by property key and SQL name: found
 * once a table, not again for every row a statement writes.
 */
export function writable(table: PgTable): Columns {
  let columns = columnsByTable.get(table);
  if (!columns) {
    columns = Object.entries(getTableColumns(table)).filter(([, column]) => !column.generatedIdentity);
    columnsByTable.set(table, columns);
  }
  return columns;
}

/** `insert into t (cols) select cols from <rows>`: `rows` yields records of t's row type as `r`. */
export function insertFrom(table: PgTable, rows: string): string {
  const names = writable(table).map(([, c]) => `"${c.name}"`);
  return `insert into "${getTableName(table)}" (${names}) select ${names.map((n) => `r.${n}`)} from ${rows}`;
}

/**
 * A row as a jsonb record: SQL column names, values as the driver would send them (jsonb kept as
 * JSON); `columns` (some of the table's writable ones) when a statement reads only those.
 */
export function jsonRecord(
  table: PgTable,
  row: Record<string, unknown>,
  columns: Columns = writable(table),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = row[key];
    out[column.name] =
      value === null || value === undefined || column.columnType === "PgJsonb"
        ? (value ?? null)
        : column.mapToDriverValue(value);
  }
  return out;
}

/** Rows as one JSON array of such records (for `jsonb_populate_recordset`). */
export const jsonRecords = (table: PgTable, rows: Record<string, unknown>[], columns: Columns = writable(table)) =>
  JSON.stringify(rows.map((row) => jsonRecord(table, row, columns)));
