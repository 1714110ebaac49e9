// A batch's file, read as a stream into items: CSV and XLSX, the same way for the API's bodies, the
// portal's uploads and the CLI (which sends the file as it is). CSV per the contract: UTF-8 (a BOM
// allowed), `,` or `;` (whichever the header row uses), CRLF or LF, RFC 4180 quotes; XLSX: the first
// sheet. In both, the header row naming the reference column is found among the first rows. Bytes are counted and hashed as they arrive (the hash tells an idempotent repeat from
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
import { HEADER_ROWS } from "@/lib/spreadsheets/header";
import { HeaderFinder } from "./header";
import { ACCEPTED_NAMES, columnsOf, invalidRequest, itemsOfRows, type ColumnChoice, type ItemInput } from "./items";

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

const separators = (line: string, c: string) => line.split(c).length - 1;
const byCount = (line: string) => (separators(line, ";") > separators(line, ",") ? ";" : ",");

/** Longest cell compared with the header names (no name is longer: the partner's are at most 200 characters). */
const NAME_CHARS = 210;

/**
 * The delimiter (`,` or `;`, the contract's two) that splits `line` into a row naming the reference
 * column, or null when neither does. Its cells are compared only up to `maxColumns` of them and
 * when short enough to be a name, so a hostile line costs the event loop little.
 */
function headerDelimiter(line: string, choice: ColumnChoice, maxColumns: number): "," | ";" | null {
  const names = (delimiter: string) =>
    columnsOf(
      line
        .split(delimiter, maxColumns)
        .map((cell) => (cell.length > NAME_CHARS ? "" : cell.trim().replace(/^"(.*)"$/, "$1"))),
      choice,
    ) !== null;
  const semicolon = names(";");
  const comma = names(",");
  if (semicolon && comma) return byCount(line);
  return semicolon ? ";" : comma ? "," : null;
}

/** Without a header line among them: whichever the line with the most separators (a table's, not a title's) holds more of. */
function widestDelimiter(lines: readonly string[]): "," | ";" {
  const count = (line: string) => separators(line, ";") + separators(line, ",");
  return byCount(lines.reduce((a, b) => (count(b) > count(a) ? b : a), ""));
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

/** The rows the finder read after the header while looking for it, once it has found it. */
function* restOf(finder: HeaderFinder, given: { done: boolean }): Generator<string[][]> {
  if (given.done || !finder.found) return;
  given.done = true;
  if (finder.found.rest.length) yield finder.found.rest;
}

/**
 * A CSV's data rows, parsed in a reader thread of the process's pool (lib/spreadsheets' csvRows) in
 * the partner's turn: the finder is offered its first rows until it has the header; only the
 * fields it keeps of the later rows come back.
 */
async function* csvPages(
  text: AsyncIterable<string>,
  limits: FileLimits,
  context: ReadContext,
  finder: HeaderFinder,
  choice: ColumnChoice,
): Pages {
  const done = await csvTurn(context.readers, context.partnerId);
  const chunks = text[Symbol.asyncIterator]();
  try {
    // The header line decides the delimiter: lines are read until one names the reference column
    // (the parse starts at once when it is the first), else HEADER_ROWS of them or the end, each
    // looked at once and within the row limit.
    let head = "";
    let at = 0;
    const lines: string[] = [];
    let delimiter: "," | ";" | null = null;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      head += next.value;
      for (let end = head.indexOf("\n", at); end >= 0 && !delimiter && lines.length < HEADER_ROWS; ) {
        const line = head.slice(at, Math.min(end, at + limits.maxRowChars)).replace(/\r$/, "");
        lines.push(line);
        delimiter = headerDelimiter(line, choice, limits.maxColumns);
        at = end + 1;
        end = head.indexOf("\n", at);
      }
      if (delimiter || lines.length >= HEADER_ROWS) break;
      if (head.length - at > limits.maxRowChars) throw rowTooLong(lines.length + 1, limits);
    }
    const last = head.slice(at, at + limits.maxRowChars);
    delimiter ??= headerDelimiter(last, choice, limits.maxColumns) ?? widestDelimiter([...lines, last]);
    const pick = (row: string[], line: number) => {
      const found = finder.offer(row, line);
      return found && { keep: found.keep, whole: found.whole };
    };
    const given = { done: false };
    for await (const page of csvRows(context.readers.csv, prepended(head, chunks), {
      delimiter,
      limits,
      pick,
      signal: context.signal,
    })) {
      yield* restOf(finder, given);
      yield page;
    }
    if (!finder.found) finder.end();
    yield* restOf(finder, given);
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
  /** The header's line (CSV) or row (workbook): rows above it (titles) are skipped. */
  headerLine: number;
  /**
   * Indexes into `header`; the reference column is null when no row among the first HEADER_ROWS
   * names one: `header` is then the row most likely to be the header, for the partner to pick from.
   */
  referenceColumn: number | null;
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
 * A workbook's data rows: the finder is offered its first sheet's first rows until it has the
 * header, then the rows after it as the finder wants them, every row checked against the limits.
 */
async function* workbookPages(
  bytes: AsyncIterable<Uint8Array>,
  limits: FileLimits,
  context: ReadContext,
  finder: HeaderFinder,
): Pages {
  const release = workbookSlot(context);
  try {
    const { cpuSeconds } = context.readers;
    // Its rows' text at most what a CSV body may hold (the reader's thread copies it all to this one).
    const options = { cpuSeconds, signal: context.signal, maxTextChars: limits.maxBytes };
    const given = { done: false };
    for await (const row of firstSheetRows(Readable.from(bytes), options)) {
      checkRow(row.values, row.line, limits);
      const found = finder.found;
      if (found) yield [found.whole > 0 && found.whole-- ? row.values : found.keep.map((i) => row.values[i] ?? "")];
      else if (finder.offer(row.values, row.line)) yield* restOf(finder, given);
    }
    if (!finder.found) finder.end();
    yield* restOf(finder, given);
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
  finder: HeaderFinder,
  choice: ColumnChoice,
): Pages {
  const bytes = capped(body, limits.maxBytes, hash);
  return format === "csv"
    ? csvPages(utf8(bytes), limits, context, finder, choice)
    : workbookPages(bytes, limits, context, finder);
}

/**
 * A file's items (a CSV or workbook body, or an upload): the header found among its first rows by
 * the accepted names or the partner's `choice`; a file where none is found is refused.
 */
export async function readFile(
  format: FileFormat,
  body: AsyncIterable<Uint8Array>,
  limits: FileLimits,
  context: ReadContext,
  choice: ColumnChoice = ACCEPTED_NAMES,
): Promise<ReadFile> {
  const hash = createHash("sha256");
  const finder = new HeaderFinder(choice, { whole: 0, fields: true, guess: false });
  const pages = pagesOf(format, body, limits, context, hash, finder, choice);
  try {
    // Each row is [reference, external id] (see HeaderFinder's `keep`).
    const items = await itemsOfRows(pages, { reference: 0, externalId: 1 }, limits.maxItems);
    return { items, digest: hash.digest("hex") };
  } finally {
    // However the reading ended (a refused header too): the parser or worker, and its slot, go.
    await pages.return(undefined);
  }
}

/**
 * A file's header, detected columns and first rows, with its row count (the same checks as
 * submitting it); where no row names a reference column, the likely header, for the partner to pick.
 */
export async function previewFile(
  format: FileFormat,
  body: AsyncIterable<Uint8Array>,
  limits: FileLimits,
  context: ReadContext,
): Promise<Preview> {
  const finder = new HeaderFinder(ACCEPTED_NAMES, { whole: PREVIEW_ROWS, fields: false, guess: true });
  const pages = pagesOf(format, body, limits, context, createHash("sha256"), finder, ACCEPTED_NAMES);
  try {
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
    const { header, line, columns } = finder.found!;
    return {
      format,
      header: [...header],
      headerLine: line,
      referenceColumn: columns?.reference ?? null,
      externalIdColumn: columns?.externalId ?? null,
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
  /** The columns the partner picked in the preview (submitting only). */
  columns?: ColumnChoice;
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
  readFile(
    upload.format,
    upload.body,
    fileLimitsOf(deps.config),
    uploadContext(deps, scope, upload.signal),
    upload.columns,
  );

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
