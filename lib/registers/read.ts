// Streams a dataset file row by row, whatever its format: XLSX (recognised by its ZIP bytes), XML
// or fields named by position for datasets published so, otherwise CSV (csv-parse). Text is decoded
// as its bytes say (./decode.ts); a CSV's delimiter is the one under which the first line names the
// dataset's columns. Each reader first tells the file's shape (format, header, the columns found),
// then yields its rows by field name; a line that cannot be split is yielded as malformed (the
// import counts it), and what stops a whole file is a RegisterFileError.
import { Readable } from "node:stream";
import type { Dataset } from "./datasets";
import type { ColumnOverrides } from "./columns";
import { decodeText } from "./decode";
import { RegisterFileError } from "./read-error";
import { readCsvRows } from "./read-csv";
import { readPositionalRows } from "./read-positional";
import { readXlsxRows } from "./read-xlsx";
import { readXmlRows } from "./read-xml";
import type { FileShape, ParsedRow, ReadItem } from "./shape";

export interface OpenedFile {
  shape: FileShape;
  rows: AsyncGenerator<ParsedRow>;
}

/** The column a field was read from, as the file names it. */
export const columnOf = (shape: FileShape, field: string) =>
  shape.match.columns.find((c) => c.field === field)?.found ?? field;

const ZIP = Buffer.from("PK\x03\x04", "latin1");
/** An OLE2 compound file: an Excel 97-2003 `.xls` workbook. */
const OLE2 = Buffer.from("d0cf11e0a1b11ae1", "hex");

/** The first bytes, and a stream that replays them before the rest. */
async function peek(stream: Readable, size: number): Promise<{ head: Buffer; replay: AsyncGenerator<Buffer> }> {
  const iterator = stream[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < size) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    length += chunk.length;
  }
  async function* replay() {
    yield* chunks;
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      yield Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
  }
  return { head: Buffer.concat(chunks), replay: replay() };
}

function readerFor(
  dataset: Dataset,
  file: string,
  head: Buffer,
  bytes: AsyncGenerator<Buffer>,
  overrides: ColumnOverrides,
): AsyncGenerator<ReadItem> {
  if (head.subarray(0, 4).equals(ZIP)) return readXlsxRows(dataset, file, Readable.from(bytes), overrides);
  if (head.subarray(0, 8).equals(OLE2)) {
    throw new RegisterFileError(
      file,
      1,
      null,
      "an Excel 97-2003 workbook (.xls): open it and save it as .xlsx, then import that",
    );
  }
  const text = decodeText(bytes);
  if (dataset.xmlRecord) return readXmlRows({ ...dataset, xmlRecord: dataset.xmlRecord }, file, text, overrides);
  if (dataset.positional) return readPositionalRows({ ...dataset, positional: dataset.positional }, text);
  return readCsvRows(dataset, file, text, overrides);
}

/** Opens one file: its shape, then its rows. */
export async function openFile(
  dataset: Dataset,
  file: string,
  stream: Readable,
  overrides: ColumnOverrides = {},
): Promise<OpenedFile> {
  const { head, replay } = await peek(stream, 8);
  const items = readerFor(dataset, file, head, replay, overrides);
  const first = await items.next();
  if (first.done || !("shape" in first.value)) throw new RegisterFileError(file, 1, null, "the file is empty");
  async function* rows(): AsyncGenerator<ParsedRow> {
    try {
      for await (const item of items) if (!("shape" in item)) yield item;
    } finally {
      stream.destroy();
    }
  }
  return { shape: first.value.shape, rows: rows() };
}
