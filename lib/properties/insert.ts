// Writing a new property with its source rows and attempt log: one statement (one round trip) whose
// SQL is built once and prepared once per connection. Rows travel as jsonb records keyed by column
// name; the children select from the inserted row, so when the reference exists already (a
// concurrent create won) nothing is written.
import { getTableColumns, getTableName, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { preparedSql, rowsOf, schema, type DbOrTx } from "@/lib/db";
import type { PropertyRow, SourceRow } from "./read";

const { properties, enrichmentSources, enrichmentAttempts } = schema;

export type AttemptInsert = Omit<typeof enrichmentAttempts.$inferInsert, "id">;

/** The columns we write (identity columns are the database's), by property key and SQL name. */
export function writable(table: PgTable) {
  return Object.entries(getTableColumns(table)).filter(([, column]) => !column.generatedIdentity);
}

/** `insert into t (cols) select cols from <rows>`: `rows` yields records of t's row type. */
function insertFrom(table: PgTable, rows: string): string {
  const names = writable(table).map(([, c]) => `"${c.name}"`);
  return `insert into "${getTableName(table)}" (${names}) select ${names.map((n) => `r.${n}`)} from ${rows}`;
}

/** A row as a jsonb record: SQL column names, values as the driver would send them (jsonb kept as JSON). */
function record(table: PgTable, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, column] of writable(table)) {
    const value = row[key];
    out[column.name] =
      value === null || value === undefined || column.columnType === "PgJsonb"
        ? (value ?? null)
        : column.mapToDriverValue(value);
  }
  return out;
}

/** Rows as one JSON array of such records (for `jsonb_populate_recordset`). */
export const jsonRecords = (table: PgTable, rows: Record<string, unknown>[]) =>
  JSON.stringify(rows.map((row) => record(table, row)));

const [PROPERTY, SOURCES, ATTEMPTS, END] = [
  `with inserted as (${insertFrom(properties, `jsonb_populate_record(null::"${getTableName(properties)}", `)}`,
  `::jsonb) r on conflict do nothing returning "id"), sources as (${insertFrom(enrichmentSources, `inserted, jsonb_populate_recordset(null::"${getTableName(enrichmentSources)}", `)}`,
  `::jsonb) r), attempts as (${insertFrom(enrichmentAttempts, `inserted, jsonb_populate_recordset(null::"${getTableName(enrichmentAttempts)}", `)}`,
  `::jsonb) r) select "id" from inserted`,
].map((text) => sql.raw(text));

const insertStatement = preparedSql("insert_property", () => {
  const [property, sources, attempts] = ["property", "sources", "attempts"].map((name) => sql.placeholder(name));
  return sql`${PROPERTY}${property}${SOURCES}${sources}${ATTEMPTS}${attempts}${END}`;
});

/** Inserts the property and its children; false when the reference was registered meanwhile. */
export async function insertProperty(
  db: DbOrTx,
  property: PropertyRow,
  sources: SourceRow[],
  attempts: AttemptInsert[],
): Promise<boolean> {
  const result = await insertStatement(db).execute({
    property: JSON.stringify(record(properties, property)),
    sources: jsonRecords(enrichmentSources, sources),
    attempts: jsonRecords(enrichmentAttempts, attempts),
  });
  return rowsOf(result).length === 1;
}
