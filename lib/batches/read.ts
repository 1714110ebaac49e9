// A batch's file, read as a stream into items: CSV (the API's `text/csv` body and the portal's
// uploads) and XLSX (portal uploads). CSV per the contract: UTF-8 (a BOM allowed), `,` or `;`
// (whichever the header row uses), CRLF or LF, RFC 4180 quotes, a header row naming the reference
// column. Bytes are counted and hashed as they arrive (the hash tells an idempotent repeat from
// another request); nothing past the byte cap is read. One partner's file cannot stall the
// others: a row's characters, fields and columns are capped, CSV is parsed off the event loop in a
// pool of reader threads, one file of a partner at a time, and workbooks are read in worker threads
// capped per partner and per process, each ended when its request is aborted or after its
// busy-time limit; the reader threads run at a lower priority than the event loop.
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { Config } from "@/lib/config";
import { DomainError, type Scope, type WriteBudget } from "@/lib/domain";
import {
  CsvRefused,
  csvReaders,
  csvRows,
  CsvUnreadable,
  firstSheetRows,
  NotAWorkbook,
  type CsvReaders,
} from "@/lib/spreadsheets";
import { partnerSlots, type PartnerSlots } from "@/lib/webhooks/fair-share";
import { columnsOf, invalidRequest, itemsOfRows, noReferenceColumn, type Columns, type ItemInput } from "./items";

export interface FileLimits {
  maxItems: number;
  maxBytes: number;
  /** Characters of one row, of one field, and fields of one row at most. */
  maxRowChars: number;
  maxFieldChars: number;
  maxColumns: number;
}

type LimitSettings = Pick<
  Config,
  "BATCH_MAX_ITEMS" | "BATCH_MAX_BYTES" | "BATCH_MAX_ROW_CHARS" | "BATCH_MAX_FIELD_CHARS" | "BATCH_MAX_COLUMNS"
>;

export const fileLimitsOf = (config: LimitSettings): FileLimits => ({
  maxItems: config.BATCH_MAX_ITEMS,
  maxBytes: config.BATCH_MAX_BYTES,
  maxRowChars: config.BATCH_MAX_ROW_CHARS,
  maxFieldChars: config.BATCH_MAX_FIELD_CHARS,
  maxColumns: config.BATCH_MAX_COLUMNS,
});

/**
 * A process's file readers: workbooks are read in worker threads, at most so many at once in all
 * and per partner; CSV files are parsed in a pool of reader threads, a partner's one at a time
 * (the next waits its turn, its body unread), so one partner's uploads hold at most one of them.
 */
export interface FileReaders {
  workbooks: PartnerSlots;
  csv: CsvReaders;
  total: number;
  perPartner: number;
  cpuSeconds: number;
  /** Per partner: when its CSV being parsed is done. */
  csvTurns: Map<string, Promise<void>>;
}

export const fileReaders = (
  config: Pick<Config, "WORKBOOK_WORKERS" | "WORKBOOK_WORKERS_PER_PARTNER" | "WORKBOOK_CPU_SECONDS" | "CSV_WORKERS">,
): FileReaders => ({
  csv: csvReaders(config.CSV_WORKERS),
  // No wait for a slot: a refusal says to try again, a queue would hold the files meanwhile.
  workbooks: partnerSlots(config.WORKBOOK_WORKERS_PER_PARTNER, 0, config.WORKBOOK_WORKERS),
  total: config.WORKBOOK_WORKERS,
  perPartner: config.WORKBOOK_WORKERS_PER_PARTNER,
  cpuSeconds: config.WORKBOOK_CPU_SECONDS,
  csvTurns: new Map(),
});

/** Waits for the partner's CSV before this one; the function returned ends this one's turn. */
async function csvTurn({ csvTurns }: FileReaders, partnerId: string): Promise<() => void> {
  const before = csvTurns.get(partnerId);
  let end = () => {};
  const mine = new Promise<void>((resolve) => (end = resolve));
  const turn = (before ?? Promise.resolve()).then(() => mine);
  csvTurns.set(partnerId, turn);
  await before;
  return () => {
    end();
    if (csvTurns.get(partnerId) === turn) csvTurns.delete(partnerId);
  };
}

/** How the file is read: whose it is, the process's readers, and the request's signal. */
export interface ReadContext {
  partnerId: string;
  readers: FileReaders;
  signal?: AbortSignal;
}

/** Bytes of `source`, at most `maxBytes` of them (a 422 beyond), fed to `hash`. */
async function* capped(source: AsyncIterable<Uint8Array>, maxBytes: number, hash: ReturnType<typeof createHash>) {
  let bytes = 0;
  for await (const chunk of source) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes)
      throw invalidRequest(`The body must not exceed ${maxBytes} bytes.`, [
        { pointer: "", detail: `more than ${maxBytes} bytes` },
      ]);
    hash.update(chunk);
    yield chunk;
  }
}

const notUtf8 = () =>
  invalidRequest('The CSV is not UTF-8: save it as "CSV UTF-8" and send it again.', [
    { line: 1, detail: "not valid UTF-8" },
  ]);

/** UTF-8 text of the bytes (a leading BOM dropped); anything else is a 422. */
async function* utf8(bytes: AsyncIterable<Uint8Array>) {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for await (const chunk of bytes) yield decoder.decode(chunk, { stream: true });
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch (error) {
    if (error instanceof TypeError) throw notUtf8();
    throw error;
  }
}

/** `;` when the header row holds more of them than commas (the contract allows those two). */
function delimiterOf(headerLine: string): "," | ";" {
  const count = (c: string) => headerLine.split(c).length - 1;
  return count(";") > count(",") ? ";" : ",";
}

/** Rows of a file, a page at a time: a page is what one slice of the body held (no await per row). */
type Pages = AsyncGenerator<string[][]>;

const tooManyColumns = (line: number, limits: FileLimits) => {
  const detail = `more than ${limits.maxColumns} columns (at most ${limits.maxColumns} a row)`;
  return invalidRequest(`Line ${line} has ${detail}.`, [{ line, detail }]);
};

const rowTooLong = (line: number, limits: FileLimits) => {
  const detail = `longer than ${limits.maxRowChars} characters (at most ${limits.maxRowChars} a row)`;
  return invalidRequest(`Line ${line} is ${detail}.`, [{ line, detail }]);
};

const fieldTooLong = (line: number, limits: FileLimits) => {
  const detail = `a field of more than ${limits.maxFieldChars} characters (at most ${limits.maxFieldChars} a field)`;
  return invalidRequest(`Line ${line} has ${detail}.`, [{ line, detail }]);
};

/** A row past the limits on columns, fields and its length is a 422 naming the limit (a workbook's rows). */
function checkRow(values: readonly string[], line: number, limits: FileLimits): void {
  if (values.length > limits.maxColumns) throw tooManyColumns(line, limits);
  let length = 0;
  for (const value of values) {
    if (value.length > limits.maxFieldChars) throw fieldTooLong(line, limits);
    if ((length += value.length) > limits.maxRowChars) throw rowTooLong(line, limits);
  }
}

/**
 * The rows after the header as they are wanted: the first `whole` as read, then only the fields
 * the items are made of (the reference, and the external id when there is one), in that order.
 */
interface Wanted {
  whole: number;
  /** Whether the rows past `whole` are wanted at all (a preview only counts them). */
  fields: boolean;
}

const picked = (columns: Columns, { fields }: Wanted): number[] =>
  !fields ? [] : columns.externalId === null ? [columns.reference] : [columns.reference, columns.externalId];

/** Where the reference and external id are in the rows past `whole` (see Wanted). */
const pickedColumns = (columns: Columns): Columns => ({
  reference: 0,
  externalId: columns.externalId === null ? null : 1,
});

/**
 * A file's header row, where its columns are, and the rows after it as wanted, from its pages (the
 * header row alone first).
 */
async function tableOf(pages: Pages): Promise<{ header: string[]; columns: Columns; rows: Pages }> {
  const first = await pages.next();
  if (first.done) throw invalidRequest("The file is empty.", [{ line: 1, detail: "no header row" }]);
  const header = first.value[0]!;
  const columns = columnsOf(header);
  if (!columns) throw noReferenceColumn(header);
  return { header, columns, rows: pages };
}

/**
 * A CSV's pages, parsed in a reader thread of the process's pool (lib/spreadsheets' csvRows) in the
 * partner's turn: its first line is the header row; only the wanted fields come back.
 */
async function* csvPages(text: AsyncIterable<string>, limits: FileLimits, context: ReadContext, wanted: Wanted): Pages {
  const done = await csvTurn(context.readers, context.partnerId);
  const chunks = text[Symbol.asyncIterator]();
  try {
    // The header line decides the delimiter: read until it is whole (looking only in what came last).
    let head = "";
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      head += next.value;
      if (next.value.includes("\n")) break;
      if (head.length > limits.maxRowChars) throw rowTooLong(1, limits);
    }
    const delimiter = delimiterOf(head.slice(0, limits.maxRowChars + 1).split("\n", 1)[0]!);
    const pick = (header: string[]) => {
      const columns = columnsOf(header);
      return columns && { keep: picked(columns, wanted), whole: wanted.whole };
    };
    const text = prepended(head, chunks);
    yield* csvRows(context.readers.csv, text, { delimiter, limits, pick, signal: context.signal });
  } catch (error) {
    if (error instanceof CsvRefused) {
      const refusal = { row: rowTooLong, field: fieldTooLong, columns: tooManyColumns }[error.kind];
      throw refusal(error.line, limits);
    }
    if (error instanceof CsvUnreadable)
      throw invalidRequest(`The CSV cannot be read at line ${error.line}: ${error.message}`, [
        { line: error.line, detail: error.message },
      ]);
    throw error;
  } finally {
    done();
    await chunks.return?.();
  }
}

async function* prepended<T>(first: T, rest: AsyncIterator<T>): AsyncGenerator<T> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

export interface ReadFile {
  items: ItemInput[];
  /** SHA-256 of the bytes read (hex). */
  digest: string;
}

/** What a file holds before it is submitted: its header, the reference column found, the first rows. */
export interface Preview {
  format: FileFormat;
  header: string[];
  /** Indexes into `header`. */
  referenceColumn: number;
  externalIdColumn: number | null;
  /** The first data rows, as read. */
  rows: string[][];
  /** Data rows in all. */
  total: number;
}

export type FileFormat = "csv" | "xlsx";

/** An uploaded file's format by its name: .csv (or .txt) and .xlsx; anything else is a 422. */
export function fileFormat(name: string): FileFormat {
  if (/\.xlsx$/i.test(name)) return "xlsx";
  if (/\.(csv|txt)$/i.test(name)) return "csv";
  const detail = "upload a .csv (UTF-8) or .xlsx file; save an .xls or .ods as .xlsx first";
  throw invalidRequest(`The file "${name.slice(0, 100)}" is neither CSV nor XLSX: ${detail}.`, [{ line: 1, detail }]);
}

/** How far down a workbook's first sheet the header may sit (title lines above it are common); a CSV's is its first line. */
const HEADER_ROWS = 10;
const PREVIEW_ROWS = 5;

/** A reader slot of the partner's for a workbook, or a 429 saying whose cap is reached. */
function workbookSlot({ readers, partnerId }: ReadContext): () => void {
  const release = readers.workbooks.take(partnerId);
  if (release) return release;
  throw new DomainError(
    "rate_limited",
    readers.workbooks.full()
      ? `The server is reading as many workbooks as it may at once (${readers.total}): try again in a moment.`
      : `At most ${readers.perPartner} of your workbooks are read at once: try again when the one being read is done.`,
  );
}

/**
 * A workbook's pages: the header row (the first one naming a reference column, among the first
 * HEADER_ROWS of its first sheet) alone, then the rows after it as wanted, each checked against the limits.
 */
async function* workbookPages(
  bytes: AsyncIterable<Uint8Array>,
  limits: FileLimits,
  context: ReadContext,
  wanted: Wanted,
): Pages {
  const release = workbookSlot(context);
  try {
    const { cpuSeconds } = context.readers;
    // Its rows' text at most what a CSV body may hold (the reader's thread copies it all to this one).
    const options = { cpuSeconds, signal: context.signal, maxTextChars: limits.maxBytes };
    let seen = 0;
    let keep: number[] | null = null;
    let whole = wanted.whole;
    for await (const row of firstSheetRows(Readable.from(bytes), options)) {
      checkRow(row.values, row.line, limits);
      if (keep) yield [whole > 0 && whole-- ? row.values : keep.map((i) => row.values[i] ?? "")];
      else {
        const columns = columnsOf(row.values);
        if (columns) {
          keep = picked(columns, wanted);
          yield [row.values];
        } else if (++seen >= HEADER_ROWS) throw noReferenceColumn(row.values);
      }
    }
  } catch (error) {
    if (error instanceof NotAWorkbook)
      throw invalidRequest(`The file is ${error.message}.`, [{ line: 1, detail: error.message }]);
    throw error;
  } finally {
    release();
  }
}

/** The file's pages and the hash its bytes feed; a workbook that is none is a 422. */
function pagesOf(
  format: FileFormat,
  body: AsyncIterable<Uint8Array>,
  limits: FileLimits,
  context: ReadContext,
  hash: ReturnType<typeof createHash>,
  wanted: Wanted,
): Pages {
  const bytes = capped(body, limits.maxBytes, hash);
  return format === "csv"
    ? csvPages(utf8(bytes), limits, context, wanted)
    : workbookPages(bytes, limits, context, wanted);
}

/** A file's items (a CSV body, or an uploaded CSV or workbook). */
export async function readFile(
  format: FileFormat,
  body: AsyncIterable<Uint8Array>,
  limits: FileLimits,
  context: ReadContext,
): Promise<ReadFile> {
  const hash = createHash("sha256");
  const pages = pagesOf(format, body, limits, context, hash, { whole: 0, fields: true });
  try {
    const { columns, rows } = await tableOf(pages);
    const items = await itemsOfRows(rows, pickedColumns(columns), limits.maxItems);
    return { items, digest: hash.digest("hex") };
  } finally {
    // However the reading ended (a refused header too): the parser or worker, and its slot, go.
    await pages.return(undefined);
  }
}

/** A file's header, detected columns and first rows, with its row count (the same checks as submitting it). */
export async function previewFile(
  format: FileFormat,
  body: AsyncIterable<Uint8Array>,
  limits: FileLimits,
  context: ReadContext,
): Promise<Preview> {
  const pages = pagesOf(format, body, limits, context, createHash("sha256"), { whole: PREVIEW_ROWS, fields: false });
  try {
    const { header, columns, rows: later } = await tableOf(pages);
    const rows: string[][] = [];
    let total = 0;
    for await (const page of later) {
      for (const row of page) {
        if (++total > limits.maxItems)
          throw invalidRequest(`At most ${limits.maxItems} rows per batch.`, [
            { line: total, detail: `more than ${limits.maxItems} data rows` },
          ]);
        if (rows.length < PREVIEW_ROWS) rows.push([...row]);
      }
    }
    return {
      format,
      header: [...header],
      referenceColumn: columns.reference,
      externalIdColumn: columns.externalId,
      rows,
      total,
    };
  } finally {
    await pages.return(undefined);
  }
}

/** A file uploaded in the portal, read in the request that brought it (`signal`: the browser gone). */
export interface Upload {
  format: FileFormat;
  body: AsyncIterable<Uint8Array>;
  signal?: AbortSignal;
}

export interface UploadDeps {
  config: LimitSettings;
  fileReaders: FileReaders;
}

const uploadContext = (deps: UploadDeps, scope: Scope, signal?: AbortSignal): ReadContext => ({
  partnerId: scope.partnerId,
  readers: deps.fileReaders,
  signal,
});

/** An upload's items, to submit (submitBatch counts the write). */
export const readUpload = (deps: UploadDeps, scope: Scope, upload: Upload): Promise<ReadFile> =>
  readFile(upload.format, upload.body, fileLimitsOf(deps.config), uploadContext(deps, scope, upload.signal));

/**
 * An upload's preview, counted as a write first: reading a file costs what submitting it does, so
 * previews spend the same budget (past it the file is not read).
 */
export async function previewUpload(
  deps: UploadDeps,
  scope: Scope,
  budget: WriteBudget,
  upload: Upload,
): Promise<Preview> {
  await budget();
  return previewFile(upload.format, upload.body, fileLimitsOf(deps.config), uploadContext(deps, scope, upload.signal));
}
