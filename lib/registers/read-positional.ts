// Files a CSV parser cannot split (Galicia's register: nothing quoted, commas inside addresses and
// inside a parenthesised note at the end): csv-parse still reads the lines (decoding, line ends,
// line numbers) with quoting off, and each raw line is named by position from both ends.
import type { Readable } from "node:stream";
import { parse, CsvError } from "csv-parse";
import type { Dataset, Row } from "./datasets";
import { csvFileError, RegisterFileError, type ParsedRow } from "./read-error";

type Layout = NonNullable<Dataset["positional"]>;

export async function* readPositionalRows(dataset: Dataset & { positional: Layout }, file: string, stream: Readable, encoding: "utf8" | "latin1"): AsyncGenerator<ParsedRow> {
  const { head, middle, tail, drop } = dataset.positional;
  const parser = stream.pipe(parse({ delimiter: ",", quote: false, relax_column_count: true, raw: true, info: true, encoding, bom: true, skip_empty_lines: true, from_line: 2 }));
  try {
    for await (const { raw, info } of parser as AsyncIterable<{ raw: string; info: { lines: number } }>) {
      const line = raw.replace(/\r?\n$/, "");
      const fields = (drop ? line.replace(drop, "") : line).split(",");
      if (fields.length < head.length + tail.length) {
        throw new RegisterFileError(file, info.lines, null, `${fields.length} fields where ${dataset.id} needs at least ${head.length + tail.length} (${[...head, ...tail].join(", ")})`);
      }
      const row: Row = { [middle]: fields.slice(head.length, fields.length - tail.length).join(",") };
      head.forEach((name, i) => (row[name] = fields[i]));
      tail.forEach((name, i) => (row[name] = fields[fields.length - tail.length + i]));
      yield { line: info.lines, row };
    }
  } catch (error) {
    if (error instanceof CsvError) throw csvFileError(file, error);
    throw error;
  }
}
