// CSV files (csv-parse over the decoded text). The delimiter is the one under which the first line
// names the dataset's columns (`;`, `,`, tab or `|`: ICAEN exports either `;` or `,`, Castilla-La
// Mancha's text is tab-separated). A line csv-parse cannot take (a field count other than the
// header's, a stray quote) is skipped and counted, never quoted: its error names only its line.
import { parse, type CsvError } from "csv-parse";
import type { Dataset, Row } from "./datasets";
import { matchHeader, type ColumnOverrides, type HeaderMatch } from "./columns";
import type { DecodedText } from "./decode";
import type { FileShape, ReadItem } from "./shape";
import { RegisterFileError } from "./read-error";

const DELIMITERS = [";", ",", "\t", "|"] as const;
/** A first line longer than this is no header. */
const MAX_HEADER_CHARS = 64 * 1024;
/** A record longer than this is a quote never closed, not a row (it would hold the rest of the file). */
const MAX_RECORD_CHARS = 1024 * 1024;

const headerNames = (line: string, delimiter: string) =>
  line.split(delimiter).map((name) =>
    name
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .trim(),
  );

/** The first line, and the text again from its start. */
async function firstLine(text: DecodedText): Promise<{ line: string; replay: AsyncGenerator<string> }> {
  const seen: string[] = [];
  let length = 0;
  let line: string | null = null;
  for (;;) {
    const next = await text.chunks.next();
    if (next.done) break;
    seen.push(next.value);
    length += next.value.length;
    const end = next.value.indexOf("\n");
    if (end >= 0 || length > MAX_HEADER_CHARS) {
      line = seen.join("").split("\n")[0]!;
      break;
    }
  }
  line ??= seen.join("");
  async function* replay() {
    yield* seen;
    yield* text.chunks;
  }
  return { line: line.replace(/\r$/, ""), replay: replay() };
}

/** The delimiter the header completes a layout under; else the one that splits it most. */
function chooseDelimiter(
  dataset: Dataset,
  line: string,
  overrides: ColumnOverrides,
): { delimiter: string; header: string[]; match: HeaderMatch } {
  const tries = DELIMITERS.map((delimiter) => {
    const header = headerNames(line, delimiter);
    return { delimiter, header, match: matchHeader(dataset, header, overrides) };
  });
  return (
    tries.find((t) => !t.match.missing.length) ??
    tries.reduce((best, t) => (t.header.length > best.header.length ? t : best))
  );
}

export async function* readCsvRows(
  dataset: Dataset,
  file: string,
  text: DecodedText,
  overrides: ColumnOverrides,
): AsyncGenerator<ReadItem> {
  const { line, replay } = await firstLine(text);
  if (!line.trim()) throw new RegisterFileError(file, 1, null, "the first line is empty: no header");
  const { delimiter, header, match } = chooseDelimiter(dataset, line, overrides);
  const shape: FileShape = {
    format: "CSV",
    delimiter,
    sheet: null,
    element: null,
    headerLine: 1,
    header,
    match,
    encoding: () => ({ encoding: text.encoding(), switchedAtLine: text.switchedAtLine() }),
  };
  yield { shape };
  const indexes = match.columns
    .filter((c) => c.found !== null)
    .map((c) => [c.field, header.indexOf(c.found!)] as const);
  const skipped: number[] = [];
  const parser = parse({
    delimiter,
    info: true,
    trim: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: MAX_RECORD_CHARS,
    on_skip: (error: CsvError | undefined) => void skipped.push(typeof error?.lines === "number" ? error.lines : 0),
  });
  const feed = (async () => {
    try {
      for await (const chunk of replay)
        if (!parser.write(chunk)) await new Promise((resolve) => parser.once("drain", resolve));
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  let first = true;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    for (const at of skipped.splice(0)) yield { line: at || info.lines, malformed: true };
    // The first record is the header itself.
    if (first) {
      first = false;
      continue;
    }
    const row: Row = {};
    for (const [field, index] of indexes) row[field] = record[index];
    yield { line: info.lines, row };
  }
  for (const at of skipped.splice(0)) yield { line: at, malformed: true };
  await feed;
}
