// Importing a dataset: every file is streamed into a new generation of the dataset's records; only
// when all of them were read does one statement make that generation the one lookups see, and the
// previous one is deleted. A file that fails leaves the previous copy in place (its own rows are
// deleted) and the error, naming file, line and column, is kept on the dataset for operators.
// Importing the same files again gives the same index: imports are idempotent.
import type { Readable } from "node:stream";
import { and, eq, lt, sql } from "drizzle-orm";
import { bare, schema, type Db } from "@/lib/db";
import type { Dataset, RecordDraft } from "./datasets";
import { readRows } from "./read";
import { RegisterFileError } from "./read-error";

const { registerDatasets: datasets, registerRecords: records } = schema;

export interface ImportFile {
  /** File name or URL, as errors and `registers list` name it. */
  name: string;
  open(): Promise<{ stream: Readable; size: number | null }>;
}

export interface ImportProgress {
  file: string;
  /** Bytes read of this file, and its size when known. */
  bytes: number;
  size: number | null;
  rows: number;
}

export interface ImportOptions {
  /** The date the data describes (YYYY-MM-DD). */
  asOf: string;
  onProgress?: (progress: ImportProgress) => void;
  /** Rows per INSERT. */
  batchSize?: number;
}

export interface ImportResult {
  dataset: string;
  generation: number;
  /** Index records written (a row naming several references gives several). */
  rows: number;
  /** Source rows without a usable reference or rating. */
  skipped: number;
  asOf: string;
  /** A later import of the same dataset finished first; this one's rows were discarded. */
  superseded: boolean;
}

const PROGRESS_EVERY = 10_000;

/** Claims the next generation of a dataset (the row is created on the first import). */
async function claimGeneration(db: Db, id: string): Promise<number> {
  const [row] = await db
    .insert(datasets)
    .values({ id, lastGeneration: 1, lastAttemptAt: new Date() })
    .onConflictDoUpdate({ target: datasets.id, set: { lastGeneration: sql`${datasets.lastGeneration} + 1`, lastAttemptAt: new Date() } })
    .returning({ generation: datasets.lastGeneration });
  return row!.generation;
}

/**
 * One statement per batch with the rows as a single JSON parameter: several times faster than a
 * multi-row VALUES of as many parameters (bench/registers-import.ts), for the same rows.
 */
async function insertBatch(db: Db, dataset: string, generation: number, batch: (RecordDraft & { sourceRow: number })[]) {
  const rows = JSON.stringify(batch.map((r) => ({ kind: r.kind, parcel: r.parcel, unit: r.unit, address_key: r.addressKey ?? null, dated_on: r.datedOn, source_row: r.sourceRow, data: r.data })));
  const columns = [records.dataset, records.generation, records.kind, records.parcel, records.unit, records.addressKey, records.datedOn, records.sourceRow, records.data].map(bare);
  await db.execute(sql`
    insert into ${records} (${sql.join(columns, sql`, `)})
    select ${dataset}, ${generation}, r.kind, r.parcel, r.unit, r.address_key, r.dated_on, r.source_row, r.data
    from jsonb_to_recordset(${rows}::jsonb) as r(kind text, parcel text, unit text, address_key text, dated_on date, source_row integer, data jsonb)`);
}

async function readFile(db: Db, dataset: Dataset, generation: number, file: ImportFile, options: ImportOptions, totals: { rows: number; skipped: number; sourceRows: number }) {
  const { stream, size } = await file.open();
  let bytes = 0;
  stream.on("data", (chunk: Buffer) => (bytes += chunk.length));
  const batchSize = options.batchSize ?? 2000;
  let batch: (RecordDraft & { sourceRow: number })[] = [];
  const flush = async () => {
    if (!batch.length) return;
    await insertBatch(db, dataset.id, generation, batch);
    totals.rows += batch.length;
    batch = [];
  };
  let rows = 0;
  for await (const { line, row } of readRows(dataset, file.name, stream)) {
    rows++;
    const result = dataset.read(row);
    if ("skipped" in result) totals.skipped++;
    else for (const record of result.records) batch.push({ ...record, sourceRow: line });
    if (batch.length >= batchSize) await flush();
    if (rows % PROGRESS_EVERY === 0) options.onProgress?.({ file: file.name, bytes, size, rows });
  }
  await flush();
  totals.sourceRows += rows;
  options.onProgress?.({ file: file.name, bytes, size, rows });
  if (!rows) throw new RegisterFileError(file.name, 1, null, "the file has a header but no rows");
}

export async function importDataset(db: Db, dataset: Dataset, files: readonly ImportFile[], options: ImportOptions): Promise<ImportResult> {
  if (!files.length) throw new Error(`no file given for ${dataset.id}`);
  const generation = await claimGeneration(db, dataset.id);
  const totals = { rows: 0, skipped: 0, sourceRows: 0 };
  const discard = () => db.delete(records).where(and(eq(records.dataset, dataset.id), eq(records.generation, generation)));
  try {
    for (const file of files) await readFile(db, dataset, generation, file, options, totals);
    // A file of another dataset can share the header names it needs, but not give nothing usable.
    if (!totals.rows) throw new Error(`none of the ${totals.sourceRows} rows has a usable reference and rating: is this a ${dataset.id} file?`);
  } catch (error) {
    await discard();
    await db.update(datasets).set({ lastError: (error as Error).message }).where(eq(datasets.id, dataset.id));
    throw error;
  }
  // The switch: only to a newer generation than the live one (an import started later may have finished first).
  const switched = await db
    .update(datasets)
    .set({ generation, rows: totals.rows, skipped: totals.skipped, asOf: options.asOf, source: files.map((f) => f.name).join(" "), importedAt: new Date(), lastError: null })
    .where(and(eq(datasets.id, dataset.id), lt(datasets.generation, generation)))
    .returning({ id: datasets.id });
  if (!switched.length) {
    await discard();
    return { dataset: dataset.id, generation, rows: totals.rows, skipped: totals.skipped, asOf: options.asOf, superseded: true };
  }
  await db.delete(records).where(and(eq(records.dataset, dataset.id), lt(records.generation, generation)));
  return { dataset: dataset.id, generation, rows: totals.rows, skipped: totals.skipped, asOf: options.asOf, superseded: false };
}
