// Writing a new property with its source rows, attempt log and durable job (when work is left):
// one statement (one round trip) of jsonb records (lib/db/records.ts); the children and the job
// select from the inserted row, so when the reference exists already (a concurrent create won)
// nothing is written.
import { getTableName, sql } from "drizzle-orm";
import { insertFrom, jsonRecord, jsonRecords, preparedSql, rowsOf, schema, type DbOrTx } from "@/lib/db";
import { jobsInsertSql, jobsJson, QUEUES, type NewJob } from "@/lib/queue";
import type { PropertyRow, SourceRow } from "./read";

const { properties, enrichmentSources, enrichmentAttempts } = schema;

export type AttemptInsert = Omit<typeof enrichmentAttempts.$inferInsert, "id">;

const [PROPERTY, SOURCES, ATTEMPTS, CHILDREN_END, END] = [
  `with inserted as (${insertFrom(properties, `jsonb_populate_record(null::"${getTableName(properties)}", `)}`,
  `::jsonb) r on conflict do nothing returning "id"), sources as (${insertFrom(enrichmentSources, `inserted, jsonb_populate_recordset(null::"${getTableName(enrichmentSources)}", `)}`,
  `::jsonb) r), attempts as (${insertFrom(enrichmentAttempts, `inserted, jsonb_populate_recordset(null::"${getTableName(enrichmentAttempts)}", `)}`,
  `::jsonb) r)`,
  ` select "id" from inserted`,
].map((text) => sql.raw(text));

const [property, sources, attempts, job] = ["property", "sources", "attempts", "job"].map((name) =>
  sql.placeholder(name),
);
const rows = sql`${PROPERTY}${property}${SOURCES}${sources}${ATTEMPTS}${attempts}${CHILDREN_END}`;
const insertStatement = preparedSql("insert_property", () => sql`${rows}${END}`);
const insertWithJobStatement = preparedSql(
  "insert_property_job",
  () => sql`${rows}, job as (${jobsInsertSql(sql`(select ${job}::json from inserted)`)})${END}`,
);

type EnrichJob = NewJob<typeof QUEUES.enrich>;

/**
 * Inserts the property and its children, and its durable job when one is given; false when the
 * reference was registered meanwhile.
 */
export async function insertProperty(
  db: DbOrTx,
  property: PropertyRow,
  sources: SourceRow[],
  attempts: AttemptInsert[],
  job?: EnrichJob,
): Promise<boolean> {
  const values = {
    property: JSON.stringify(jsonRecord(properties, property)),
    sources: jsonRecords(enrichmentSources, sources),
    attempts: jsonRecords(enrichmentAttempts, attempts),
  };
  const result = await (job
    ? insertWithJobStatement(db).execute({ ...values, job: jobsJson(QUEUES.enrich, [job]) })
    : insertStatement(db).execute(values));
  return rowsOf(result).length === 1;
}
