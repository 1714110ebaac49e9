// Importing a dataset: every file is streamed into a new generation of the dataset's records; only
// when all of them were read does one statement make that generation the one lookups see, and the
// previous one is deleted (./generations.ts). A row or value that cannot be read is left out and counted by reason
// (./skips.ts), never stopping the import; a file that cannot be read at all (not the dataset's
// columns, not a workbook) leaves the previous copy in place (its own rows are deleted) and the
// error, naming file, line and column, is kept on the dataset for operators. No error and no
// stored message carries a value of the file or a parameter of a statement. Importing the same
// files again gives the same index: imports are idempotent.
import type { Readable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { bare, schema, type Db } from "@/lib/db";
import { madridDay, sqlState } from "@/lib/domain";
import type { Dataset, RecordDraft } from "./datasets";
import { missingColumns, type ColumnOverrides } from "./columns";
import { columnOf, openFile } from "./read";
import type { FileShape } from "./shape";
import { RegisterFileError } from "./read-error";
import { writeGeneration } from "./generations";
import { tally, type LineCounts, type Skips } from "./skips";

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
  /**
   * The publisher's snapshot date (YYYY-MM-DD) from the dataset's published metadata, when known (an
   * operator's --as-of, or the dataset's own stated snapshot). Without it the copy is as of its
   * latest record's date: never the download day.
   */
  asOf?: string | null;
  /** Expected column names → the files' own (the CLI's --columns and the overrides folder). */
  columns?: ColumnOverrides;
  onProgress?: (progress: ImportProgress) => void;
  /** Rows per INSERT. */
  batchSize?: number;
}

export interface ImportResult {
  dataset: string;
  generation: number;
  /** Index records written (a row naming several references gives several). */
  rows: number;
  /** Source rows left out (no usable reference, rating…, or a line that could not be split). */
  skipped: number;
  /** Rows and values left out, by reason, with the first few positions. */
  skips: Skips;
  /** Where the files' lines went: header, rows (kept or left out by reason), malformed records, blank. */
  lines: LineCounts;
  /** The publisher's snapshot date: `publishedOn`, else `latestRecordOn`; null when neither is known. */
  asOf: string | null;
  /** Which of the two `asOf` is (null: neither is known). */
  asOfBasis: AsOfBasis | null;
  publishedOn: string | null;
  /** The newest issue, registration or inspection date among the records (no later than the import day). */
  latestRecordOn: string | null;
  /** A later import of the same dataset finished first; this one's rows were discarded. */
  superseded: boolean;
}

/** A source row's records, with the line they come from. */
export type SourcedRecord = RecordDraft & { sourceRow: number };

export interface ReadTotals {
  /** Source rows read, skipped ones included. */
  sourceRows: number;
  skipped: number;
  skips: Skips;
  /** Where the files' lines went (./skips.ts LineCounts). */
  lines: LineCounts;
}

export const emptyTotals = (): ReadTotals => ({
  sourceRows: 0,
  skipped: 0,
  skips: {},
  lines: { header: 0, rows: 0, malformed: 0, blank: 0 },
});

const PROGRESS_EVERY = 10_000;

/**
 * Reads one file through its dataset: the shape (refused when it lacks a needed column), then each
 * row's records, counting what is left out into `totals`.
 */
export async function* readRecords(
  dataset: Dataset,
  file: ImportFile,
  columns: ColumnOverrides,
  totals: ReadTotals,
  onShape: (shape: FileShape) => void = () => {},
  onProgress?: ImportOptions["onProgress"],
): AsyncGenerator<SourcedRecord[]> {
  const { stream, size } = await file.open();
  let bytes = 0;
  stream.on("data", (chunk: Buffer) => (bytes += chunk.length));
  // A file refused before its rows are read is closed here; once they are, openFile's rows close it.
  const opened = await openFile(dataset, file.name, stream, columns).catch((error: unknown) => {
    stream.destroy();
    throw error;
  });
  const { shape, rows } = opened;
  onShape(shape);
  if (shape.match.missing.length) {
    stream.destroy();
    throw new RegisterFileError(file.name, shape.headerLine, null, missingColumns(dataset, shape.match));
  }
  // XML's header line is its first record's: only sheets and text have lines above their rows.
  totals.lines.header += shape.format === "XML" ? 0 : shape.headerLine;
  let count = 0;
  for await (const parsed of rows) {
    if ("blank" in parsed) {
      totals.lines.blank++;
      continue;
    }
    count++;
    if ("malformed" in parsed) {
      tally(totals.skips, "line", { file: file.name, line: parsed.line, column: null });
      totals.skipped++;
      totals.lines.malformed += parsed.lines ?? 1;
    } else {
      totals.lines.rows += parsed.lines ?? 1;
      const result = dataset.read(parsed.row, (field, problem) =>
        tally(totals.skips, problem, { file: file.name, line: parsed.line, column: columnOf(shape, field) }),
      );
      if ("skipped" in result) {
        tally(totals.skips, result.skipped, {
          file: file.name,
          line: parsed.line,
          column: columnOf(shape, result.field),
        });
        totals.skipped++;
      } else yield result.records.map((record) => ({ ...record, sourceRow: parsed.line }));
    }
    if (count % PROGRESS_EVERY === 0) onProgress?.({ file: file.name, bytes, size, rows: count });
  }
  totals.sourceRows += count;
  onProgress?.({ file: file.name, bytes, size, rows: count });
  if (!count) throw new RegisterFileError(file.name, shape.headerLine, null, "the file has a header but no rows");
}

/** A failed write, told by its lines and SQLSTATE: the driver's own error quotes the batch. */
export class RegisterWriteError extends Error {
  constructor(file: string, first: number, last: number, error: unknown) {
    const code = sqlState(error);
    super(`${file}: writing the records of lines ${first}-${last} failed${code ? ` (SQLSTATE ${code})` : ""}`);
  }
}

/**
 * One statement per batch with the rows as a single JSON parameter: several times faster than a
 * multi-row VALUES of as many parameters (bench/registers-import.ts), for the same rows.
 */
async function insertBatch(db: Db, dataset: string, generation: number, file: string, batch: SourcedRecord[]) {
  const rows = JSON.stringify(
    batch.map((r) => ({
      kind: r.kind,
      parcel: r.parcel,
      unit: r.unit,
      address_key: r.addressKey ?? null,
      dated_on: r.datedOn,
      source_row: r.sourceRow,
      data: r.data,
    })),
  );
  const columns = [
    records.dataset,
    records.generation,
    records.kind,
    records.parcel,
    records.unit,
    records.addressKey,
    records.datedOn,
    records.sourceRow,
    records.data,
  ].map(bare);
  try {
    await db.execute(sql`
      insert into ${records} (${sql.join(columns, sql`, `)})
      select ${dataset}, ${generation}, r.kind, r.parcel, r.unit, r.address_key, r.dated_on, r.source_row, r.data
      from jsonb_to_recordset(${rows}::jsonb)
        as r(kind text, parcel text, unit text, address_key text, dated_on date, source_row integer, data jsonb)`);
  } catch (error) {
    throw new RegisterWriteError(file, batch[0]!.sourceRow, batch[batch.length - 1]!.sourceRow, error);
  }
}

/** Where a copy's as_of comes from: the publisher's metadata, or the newest record's date. */
export type AsOfBasis = "published" | "latest_record";

/** The date a record tells of its own event: a certificate's issue or registration, an inspection's. */
function eventDate(record: RecordDraft): string | null {
  if (record.kind !== "certificate") return record.datedOn;
  const { issuedOn, registeredOn } = record.data as { issuedOn?: string | null; registeredOn?: string | null };
  return issuedOn ?? registeredOn ?? null;
}

export async function importDataset(
  db: Db,
  dataset: Dataset,
  files: readonly ImportFile[],
  options: ImportOptions,
): Promise<ImportResult> {
  if (!files.length) throw new Error(`no file given for ${dataset.id}`);
  const totals = emptyTotals();
  let written = 0;
  // A date past the import day (in Spain) is a typo in the file, not the snapshot's date.
  const today = madridDay(new Date());
  let latestRecordOn: string | null = null;
  const write = async (generation: number) => {
    for (const file of files) {
      let batch: SourcedRecord[] = [];
      const flush = async () => {
        if (!batch.length) return;
        await insertBatch(db, dataset.id, generation, file.name, batch);
        written += batch.length;
        batch = [];
      };
      for await (const rowRecords of readRecords(
        dataset,
        file,
        options.columns ?? {},
        totals,
        undefined,
        options.onProgress,
      )) {
        batch.push(...rowRecords);
        for (const record of rowRecords) {
          const on = eventDate(record);
          if (on && on <= today && (!latestRecordOn || on > latestRecordOn)) latestRecordOn = on;
        }
        if (batch.length >= (options.batchSize ?? 2000)) await flush();
      }
      await flush();
    }
    // A file of another dataset can share the header names it needs, but not give nothing usable.
    if (!written)
      throw new Error(
        `none of the ${totals.sourceRows} rows has a usable reference and rating: is this a ${dataset.id} file?`,
      );
    const publishedOn = options.asOf ?? dataset.snapshotOn ?? null;
    const asOfBasis: AsOfBasis | null = publishedOn ? "published" : latestRecordOn ? "latest_record" : null;
    return {
      dataset: dataset.id,
      rows: written,
      skipped: totals.skipped,
      skips: totals.skips,
      lines: totals.lines,
      asOf: publishedOn ?? latestRecordOn,
      asOfBasis,
      publishedOn,
      latestRecordOn,
    };
  };
  const copy = {
    table: datasets,
    key: { values: { id: dataset.id }, columns: [datasets.id], where: eq(datasets.id, dataset.id) },
    records: { table: records, generation: records.generation, where: eq(records.dataset, dataset.id) },
  };
  const {
    generation,
    written: result,
    superseded,
  } = await writeGeneration(db, copy, write, (r) => ({
    rows: r.rows,
    skipped: r.skipped,
    skips: r.skips,
    asOf: r.asOf,
    asOfBasis: r.asOfBasis,
    publishedOn: r.publishedOn,
    latestRecordOn: r.latestRecordOn,
    source: files.map((f) => f.name).join(" "),
    importedAt: new Date(),
  }));
  return { ...result, generation, superseded };
}
