// A batch's file, read as a stream into items: CSV (the API's `text/csv` body and the portal's
// uploads) and XLSX (portal uploads). CSV per the contract: UTF-8 (a BOM allowed), `,` or `;`
// (whichever the header row uses), CRLF or LF, RFC 4180 quotes, a header row naming the reference
// column. Bytes are counted and hashed as they arrive (the hash tells an idempotent repeat from
// another request); nothing past the byte cap is read.
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { parse } from "csv-parse";
import { firstSheetRows, NotAWorkbook } from "@/lib/spreadsheets";
import { columnsOf, invalidRequest, itemsOfRows, noReferenceColumn, type ItemInput } from "./items";

export interface FileLimits {
  maxItems: number;
  maxBytes: number;
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

/** Rows of a file, a page at a time: a page is what one piece of the body held (no await per row). */
type Pages = AsyncGenerator<string[][]>;

/** The CSV's records (arrays of fields) in pages, the header row first. */
async function* csvRecords(text: AsyncIterable<string>): Pages {
  const chunks = text[Symbol.asyncIterator]();
  // The header line decides the delimiter: read until it is whole.
  let head = "";
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    head += next.value;
    if (head.includes("\n")) break;
  }
  const parser = parse({
    delimiter: delimiterOf(head.split("\n", 1)[0]!),
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
  });
  // Records are collected as the parser emits them and handed on once per piece written: an
  // async iteration per record cost more than the parsing itself (2 KB of garbage a row).
  const page: string[][] = [];
  let failure: Error | undefined;
  parser.on("data", (record: string[]) => page.push(record));
  parser.on("error", (error) => (failure ??= error));
  const write = (piece: string) => new Promise<void>((resolve) => parser.write(piece, () => resolve()));
  try {
    for (let piece: string | undefined = head; piece !== undefined; ) {
      await write(piece);
      if (failure) throw failure;
      if (page.length) yield page.splice(0);
      const next = await chunks.next();
      piece = next.done ? undefined : next.value;
    }
    parser.end();
    await finished(parser);
    if (failure) throw failure;
    if (page.length) yield page.splice(0);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code?.startsWith("CSV_")) {
      const line = (error as { lines?: number }).lines ?? 1;
      throw invalidRequest(`The CSV cannot be read at line ${line}: ${(error as Error).message}`, [
        { line, detail: (error as Error).message },
      ]);
    }
    throw error;
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

/** The file's records and the hash its bytes feed; a workbook that is none is a 422. */
function recordsOf(
  format: FileFormat,
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
  hash: ReturnType<typeof createHash>,
): Pages {
  const bytes = capped(body, maxBytes, hash);
  if (format === "csv") return csvRecords(utf8(bytes));
  return (async function* () {
    try {
      for await (const row of firstSheetRows(Readable.from(bytes))) yield [row.values];
    } catch (error) {
      if (error instanceof NotAWorkbook)
        throw invalidRequest(`The file is ${error.message}.`, [{ line: 1, detail: error.message }]);
      throw error;
    }
  })();
}

/** A file's items (a CSV body, or an uploaded CSV or workbook). */
export async function readFile(
  format: FileFormat,
  body: AsyncIterable<Uint8Array>,
  limits: FileLimits,
): Promise<ReadFile> {
  const hash = createHash("sha256");
  const { columns, rows } = await headerOf(recordsOf(format, body, limits.maxBytes, hash), HEADER_ROWS[format]);
  const items = await itemsOfRows(rows, columns, limits.maxItems);
  return { items, digest: hash.digest("hex") };
}

/** A file's header, detected columns and first rows, with its row count (the same checks as submitting it). */
export async function previewFile(
  format: FileFormat,
  body: AsyncIterable<Uint8Array>,
  limits: FileLimits,
): Promise<Preview> {
  const records = recordsOf(format, body, limits.maxBytes, createHash("sha256"));
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
}
