// Streams a dataset file row by row (csv-parse). The delimiter and, unless the dataset fixes it,
// the encoding are read from the header line; the header must name the dataset's required columns.
// Anything the parser cannot read stops the file with a RegisterFileError naming file, line, column.
import { Readable } from "node:stream";
import { parse, CsvError } from "csv-parse";
import type { Dataset, Row } from "./datasets";

export class RegisterFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: string | number | null,
    detail: string,
  ) {
    super(`${file}: line ${line}${column === null ? "" : `, column ${typeof column === "number" ? column : `"${column}"`}`}: ${detail}`);
  }
}

const DELIMITERS = [";", ",", "\t", "|"] as const;
/** A header line longer than this is no header. */
const MAX_HEADER_BYTES = 64 * 1024;

const headerNames = (line: string, delimiter: string) =>
  line
    .replace(/^\uFEFF/, "")
    .split(delimiter)
    .map((name) => name.trim().replace(/^"(.*)"$/, "$1").trim());

/** The first line's bytes, and a stream that replays them before the rest. */
async function splitHeader(stream: Readable): Promise<{ header: Buffer; replay: Readable }> {
  const iterator = stream[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    size += chunk.length;
    if (chunk.includes(0x0a) || size > MAX_HEADER_BYTES) break;
  }
  const head = Buffer.concat(chunks);
  const end = head.indexOf(0x0a);
  const header = head.subarray(0, end < 0 ? head.length : end);
  async function* replay() {
    if (head.length) yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { header, replay: Readable.from(replay(), { objectMode: false }) };
}

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Where csv-parse's error sits: its column name, else the 1-based field number. */
function errorColumn(error: CsvError & { column?: string | number; index?: number }): string | number | null {
  if (typeof error.column === "string" || typeof error.column === "number") return error.column;
  return typeof error.index === "number" ? error.index + 1 : null;
}

export interface ParsedRow {
  line: number;
  row: Row;
}

/** Rows of one file, with the line each ends on; throws RegisterFileError on what it cannot read. */
export async function* readRows(dataset: Dataset, file: string, stream: Readable): AsyncGenerator<ParsedRow> {
  const { header, replay } = await splitHeader(stream);
  const encoding = dataset.encoding ?? (isUtf8(header) ? "utf8" : "latin1");
  const line = header.toString(encoding).replace(/\r$/, "");
  const delimiter = DELIMITERS.find((d) => dataset.required.every((name) => headerNames(line, d).includes(name)));
  if (!delimiter) {
    replay.destroy();
    const names = headerNames(line, DELIMITERS.reduce((best, d) => (line.split(d).length > line.split(best).length ? d : best)));
    const missing = dataset.required.filter((name) => !names.includes(name));
    throw new RegisterFileError(file, 1, null, `the header lacks the column${missing.length > 1 ? "s" : ""} ${missing.map((m) => `"${m}"`).join(", ")} that ${dataset.id} needs`);
  }
  const parser = replay.pipe(
    parse({
      columns: (names: string[]) => names.map((n) => n.trim()),
      delimiter,
      encoding,
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count_less: false,
    }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Row; info: { lines: number } }>) yield { line: info.lines, row: record };
  } catch (error) {
    if (error instanceof CsvError) throw new RegisterFileError(file, (error as CsvError & { lines?: number }).lines ?? 0, errorColumn(error), error.message);
    throw error;
  } finally {
    replay.destroy();
  }
}
