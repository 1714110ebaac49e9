// A batch's file, read as a stream into items: CSV (the API's `text/csv` body and the portal's
// uploads) and XLSX (portal uploads). CSV per the contract: UTF-8 (a BOM allowed), `,` or `;`
// (whichever the header row uses), CRLF or LF, RFC 4180 quotes, a header row naming the reference
// column. Bytes are counted and hashed as they arrive (the hash tells an idempotent repeat from
// another request); nothing past the byte cap is read. One partner's file cannot stall the
// others: a row's characters, fields and columns are capped, CSV is parsed a slice at a time with
// a turn of the event loop every few milliseconds, one file of a partner at a time, and workbooks
// are read in worker threads capped per partner and per process, each ended when its request is
// aborted or after its busy-time limit.
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { CsvError, parse, type InfoRecord } from "csv-parse";
import type { Config } from "@/lib/config";
import { DomainError, type Scope, type WriteBudget } from "@/lib/domain";
import { firstSheetRows, NotAWorkbook } from "@/lib/spreadsheets";
import { partnerSlots, type PartnerSlots } from "@/lib/webhooks/fair-share";
import { columnsOf, invalidRequest, itemsOfRows, noReferenceColumn, type ItemInput } from "./items";

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
 * and per partner; a partner's CSV files are parsed on this thread one at a time (the next waits
 * its turn, its body unread), so one partner's uploads take at most one parser's turns from the
 * others' requests.
 */
export interface FileReaders {
  workbooks: PartnerSlots;
  total: number;
  perPartner: number;
  cpuSeconds: number;
  /** Per partner: when its CSV being parsed is done. */
  csvTurns: Map<string, Promise<void>>;
}

export const fileReaders = (
  config: Pick<Config, "WORKBOOK_WORKERS" | "WORKBOOK_WORKERS_PER_PARTNER" | "WORKBOOK_CPU_SECONDS">,
): FileReaders => ({
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

/**
 * The CSV parser is given this many characters at a time, and after TURN_MS of parsing the event
 * loop has a turn (others' requests go on meanwhile): by time, not size, because what a slice
 * costs depends on what it holds (a line of commas parses at about 2 MB/s here, text at 50).
 */
const SLICE = 1024;
const TURN_MS = 2;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const tooManyColumns = (line: number, limits: FileLimits) => {
  const detail = `more than ${limits.maxColumns} columns (at most ${limits.maxColumns} a row)`;
  return invalidRequest(`Line ${line} has ${detail}.`, [{ line, detail }]);
};

const rowTooLong = (line: number, limits: FileLimits) => {
  const detail = `longer than ${limits.maxRowChars} characters (at most ${limits.maxRowChars} a row)`;
  return invalidRequest(`Line ${line} is ${detail}.`, [{ line, detail }]);
};

/** The number of fields of the record csv-parse 7 is reading (its own `state.record`, which its types do not show). */
function openRecordFields(parser: object): () => number {
  const state = "state" in parser ? parser.state : null;
  if (!state || typeof state !== "object" || !("record" in state))
    throw new Error("csv-parse no longer keeps the record being read in state.record");
  return () => (Array.isArray(state.record) ? state.record.length : 0);
}

/** A row past the limits on columns, fields and (`chars`: a workbook's) its length is a 422 naming the limit. */
function checkRow(values: readonly string[], line: number, limits: FileLimits, chars = false): void {
  if (values.length > limits.maxColumns) throw tooManyColumns(line, limits);
  let length = 0;
  for (const value of values) {
    if (value.length > limits.maxFieldChars) {
      const detail = `a field of more than ${limits.maxFieldChars} characters (at most ${limits.maxFieldChars} a field)`;
      throw invalidRequest(`Line ${line} has ${detail}.`, [{ line, detail }]);
    }
    if (chars && (length += value.length) > limits.maxRowChars) throw rowTooLong(line, limits);
  }
}

/** The CSV's records (arrays of fields) in pages, the header row first, parsed in the partner's turn. */
async function* csvRecords(text: AsyncIterable<string>, limits: FileLimits, context: ReadContext): Pages {
  const done = await csvTurn(context.readers, context.partnerId);
  try {
    yield* parsedCsv(text, limits, context.signal);
  } finally {
    done();
  }
}

async function* parsedCsv(text: AsyncIterable<string>, limits: FileLimits, signal?: AbortSignal): Pages {
  const chunks = text[Symbol.asyncIterator]();
  // The header line decides the delimiter: read until it is whole (looking only in what came last).
  let head = "";
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    head += next.value;
    if (next.value.includes("\n")) break;
    if (head.length > limits.maxRowChars) throw rowTooLong(1, limits);
  }
  const parser = parse({
    delimiter: delimiterOf(head.slice(0, limits.maxRowChars + 1).split("\n", 1)[0]!),
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    // csv-parse stops a record at this many characters as it goes; columns and fields are
    // checked on each record (a `cast` per field made parsing 25 times slower), and the record
    // being read after each slice: a line of a million empty fields holds no characters.
    max_record_size: limits.maxRowChars,
    on_record: (record: string[], context: InfoRecord) => {
      checkRow(record, context.lines, limits);
      return record;
    },
  });
  // The record being read (csv-parse 7's own state; a slice adds at most SLICE fields to it).
  const openFields = openRecordFields(parser);
  // Records are collected as the parser emits them and handed on once per slice written: an
  // async iteration per record cost more than the parsing itself (2 KB of garbage a row).
  const page: string[][] = [];
  let failure: Error | undefined;
  parser.on("data", (record: string[]) => page.push(record));
  parser.on("error", (error) => (failure ??= error));
  const write = (slice: string) => new Promise<void>((resolve) => parser.write(slice, () => resolve()));
  let since = performance.now();
  try {
    for (let piece: string | undefined = head; piece !== undefined; ) {
      for (let at = 0; at < piece.length; at += SLICE) {
        await write(piece.slice(at, at + SLICE));
        if (failure) throw failure;
        if (openFields() > limits.maxColumns) throw tooManyColumns(parser.info.lines, limits);
        if (page.length) yield page.splice(0);
        if (performance.now() - since < TURN_MS) continue;
        await turn();
        signal?.throwIfAborted();
        since = performance.now();
      }
      const next = await chunks.next();
      piece = next.done ? undefined : next.value;
    }
    parser.end();
    await finished(parser);
    if (failure) throw failure;
    if (page.length) yield page.splice(0);
  } catch (error) {
    if (!(error instanceof CsvError) || !error.code.startsWith("CSV_")) throw error;
    const line = typeof error.lines === "number" ? error.lines : 1;
    if (error.code === "CSV_MAX_RECORD_SIZE") throw rowTooLong(line, limits);
    throw invalidRequest(`The CSV cannot be read at line ${line}: ${error.message}`, [{ line, detail: error.message }]);
  } finally {
    parser.destroy();
    await chunks.return?.();
  }
}

/**
 * The header row (the first one naming a reference column, among the first `searchRows`), its
 * columns, and the data rows after it.
 */
async function headerOf(pages: Pages, searchRows: number) {
  let seen = 0;
  for (let next = await pages.next(); !next.done; next = await pages.next()) {
    for (const [i, row] of next.value.entries()) {
      const columns = columnsOf(row);
      if (columns) return { header: row, columns, rows: startingWith(next.value.slice(i + 1), pages) };
      if (++seen >= searchRows) throw noReferenceColumn(row);
    }
  }
  throw invalidRequest("The file is empty.", [{ line: 1, detail: "no header row" }]);
}

async function* startingWith(first: string[][], rest: Pages): Pages {
  yield first;
  yield* rest;
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
const HEADER_ROWS: Record<FileFormat, number> = { csv: 1, xlsx: 10 };
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

/** The rows of a workbook's first sheet, each checked against the limits. */
async function* workbookRecords(bytes: AsyncIterable<Uint8Array>, limits: FileLimits, context: ReadContext): Pages {
  const release = workbookSlot(context);
  try {
    const { cpuSeconds } = context.readers;
    // Its rows' text at most what a CSV body may hold (the reader's thread copies it all to this one).
    const options = { cpuSeconds, signal: context.signal, maxTextChars: limits.maxBytes };
    for await (const row of firstSheetRows(Readable.from(bytes), options)) {
      checkRow(row.values, row.line, limits, true);
      yield [row.values];
    }
  } catch (error) {
    if (error instanceof NotAWorkbook)
      throw invalidRequest(`The file is ${error.message}.`, [{ line: 1, detail: error.message }]);
    throw error;
  } finally {
    release();
  }
}

/** The file's records and the hash its bytes feed; a workbook that is none is a 422. */
function recordsOf(
  format: FileFormat,
  body: AsyncIterable<Uint8Array>,
  limits: FileLimits,
  context: ReadContext,
  hash: ReturnType<typeof createHash>,
): Pages {
  const bytes = capped(body, limits.maxBytes, hash);
  return format === "csv" ? csvRecords(utf8(bytes), limits, context) : workbookRecords(bytes, limits, context);
}

/** A file's items (a CSV body, or an uploaded CSV or workbook). */
export async function readFile(
  format: FileFormat,
  body: AsyncIterable<Uint8Array>,
  limits: FileLimits,
  context: ReadContext,
): Promise<ReadFile> {
  const hash = createHash("sha256");
  const records = recordsOf(format, body, limits, context, hash);
  try {
    const { columns, rows } = await headerOf(records, HEADER_ROWS[format]);
    const items = await itemsOfRows(rows, columns, limits.maxItems);
    return { items, digest: hash.digest("hex") };
  } finally {
    // However the reading ended (a refused header too): the parser or worker, and its slot, go.
    await records.return(undefined);
  }
}

/** A file's header, detected columns and first rows, with its row count (the same checks as submitting it). */
export async function previewFile(
  format: FileFormat,
  body: AsyncIterable<Uint8Array>,
  limits: FileLimits,
  context: ReadContext,
): Promise<Preview> {
  const records = recordsOf(format, body, limits, context, createHash("sha256"));
  try {
    const { header, columns, rows: pages } = await headerOf(records, HEADER_ROWS[format]);
    const rows: string[][] = [];
    let total = 0;
    for await (const page of pages) {
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
    await records.return(undefined);
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
