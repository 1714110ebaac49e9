// Writing a new property with its source rows and attempt log: one statement (one round trip) of
// jsonb records (lib/db/records.ts); the children select from the inserted row, so when the
// reference exists already (a concurrent create won) nothing is written.
import { getTableName, sql } from "drizzle-orm";
import { insertFrom, jsonRecord, jsonRecords, preparedSql, rowsOf, schema, type DbOrTx } from "@/lib/db";
import type { PropertyRow, SourceRow } from "./read";

const { properties, enrichmentSources, enrichmentAttempts } = schema;

export type AttemptInsert = Omit<typeof enrichmentAttempts.$inferInsert, "id">;

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
    property: JSON.stringify(jsonRecord(properties, property)),
    sources: jsonRecords(enrichmentSources, sources),
    attempts: jsonRecords(enrichmentAttempts, attempts),
  });
  return rowsOf(result).length === 1;
}
