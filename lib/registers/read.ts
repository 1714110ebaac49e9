// Streams a dataset file row by row, whatever its format: XLSX (recognised by its ZIP bytes), XML
// or fields named by position for datasets published so, otherwise CSV (csv-parse). A text file's
// encoding, unless the dataset fixes it, and a CSV's delimiter are read from the header line; the
// header must name the dataset's required columns. Anything a reader cannot read stops the file
// with a RegisterFileError naming file, line and column.
import { Readable } from "node:stream";
import { parse, CsvError } from "csv-parse";
import type { Dataset, Row } from "./datasets";
import { csvFileError, RegisterFileError, type ParsedRow } from "./read-error";
import { readXlsxRows } from "./read-xlsx";
import { readPositionalRows } from "./read-positional";
import { readXmlRows } from "./read-xml";

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

const ZIP = Buffer.from("PK\x03\x04", "latin1");

/** Rows of one file, with the line each ends on; throws RegisterFileError on what it cannot read. */
export async function* readRows(dataset: Dataset, file: string, stream: Readable): AsyncGenerator<ParsedRow> {
  const { header, replay } = await splitHeader(stream);
  const encoding = dataset.encoding ?? (isUtf8(header) ? "utf8" : "latin1");
  try {
    if (header.subarray(0, 4).equals(ZIP)) yield* readXlsxRows(dataset, file, replay);
    else if (dataset.xmlRecord) {
      const prolog = header.toString("latin1").replace(/^\uFEFF|^\xEF\xBB\xBF/, "");
      if (!prolog.trimStart().startsWith("<")) throw new RegisterFileError(file, 1, null, `${dataset.id} files are XML; this one does not start with a tag`);
      yield* readXmlRows({ ...dataset, xmlRecord: dataset.xmlRecord }, file, replay, prolog);
    } else if (dataset.positional) {
      yield* readPositionalRows({ ...dataset, positional: dataset.positional }, file, replay, encoding);
    } else yield* readCsvRows(dataset, file, header.toString(encoding), encoding, replay);
  } finally {
    replay.destroy();
  }
}

async function* readCsvRows(dataset: Dataset, file: string, header: string, encoding: "utf8" | "latin1", replay: Readable): AsyncGenerator<ParsedRow> {
  const line = header.replace(/\r$/, "");
  const delimiter = DELIMITERS.find((d) => dataset.required.every((name) => headerNames(line, d).includes(name)));
  if (!delimiter) {
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
    if (error instanceof CsvError) throw csvFileError(file, error);
    throw error;
  }
}
