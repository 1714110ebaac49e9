// CSV files (csv-parse over the decoded text). The delimiter is the one under which the first line
// names the dataset's columns (`;`, `,`, tab or `|`: ICAEN exports either `;` or `,`, Castilla-La
// Mancha's text is tab-separated).
//
// A malformed record costs only itself. The text is cut into records here, line by line, before
// csv-parse splits their fields: a line whose quotes do not pair up continues onto the next lines
// only when together they make one well-formed record of the header's fields (a quoted field
// holding a line break), within a few lines; otherwise it is a record of its own. So a stray quote
// opening a field never swallows the lines after it (csv-parse alone reads on to the end of the
// file), and every record keeps its true line. A quote inside an unquoted field is kept as text
// (`relax_quotes`). A record csv-parse cannot split, or whose field count is not the header's, is
// yielded as malformed with its line, never quoted; blank lines are yielded as such, so that what
// a file's reading reports adds up to its lines.
import { parse } from "csv-parse/sync";
import type { Dataset, Row } from "./datasets";
import { matchHeader, type ColumnOverrides, type HeaderMatch } from "./columns";
import type { DecodedText } from "./decode";
import { textLines, type TextLine } from "./lines";
import type { FileShape, ParsedRow, ReadItem } from "./shape";
import { RegisterFileError } from "./read-error";

const DELIMITERS = [";", ",", "\t", "|"] as const;
/** A first line longer than this is no header. */
const MAX_HEADER_CHARS = 64 * 1024;
/** A record holding line breaks spans at most this many lines; a quote open longer is a stray one. */
const MAX_RECORD_LINES = 20;
/** Records split by one call of the parser. */
const BATCH = 1000;

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

/** One record's text and where it sits: its first line and how many lines it spans. */
interface Candidate {
  line: number;
  lines: number;
  text: string;
}

const oddQuotes = (text: string) => (text.split('"').length - 1) % 2 === 1;

/**
 * Splits records with csv-parse: each candidate's fields, or null where csv-parse refuses it or it
 * does not have `width` fields. Candidates are whole records, so a batch is parsed in one call;
 * should csv-parse's recovery from an error take a neighbour with it (the outcomes do not match the
 * candidates one to one), each is parsed alone.
 */
function splitRecords(candidates: readonly Candidate[], delimiter: string, width: number): (string[] | null)[] {
  const split = (text: string) => {
    const outcomes: (string[] | null)[] = [];
    parse(text, {
      delimiter,
      trim: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_records_with_error: true,
      on_record: (record: string[]) => void outcomes.push(record.length === width ? record : null),
      on_skip: () => void outcomes.push(null),
    });
    return outcomes;
  };
  const together = split(candidates.map((c) => c.text).join("\n"));
  if (together.length === candidates.length) return together;
  return candidates.map((c) => {
    const alone = split(c.text);
    return alone.length === 1 ? alone[0]! : null;
  });
}

/**
 * The file's records after its header: a line with an unpaired quote joined with the next ones
 * when that makes one record of `width` fields; blank lines and lines over the length cap apart.
 */
async function* candidates(
  lines: AsyncIterator<TextLine>,
  delimiter: string,
  width: number,
): AsyncGenerator<Candidate | { line: number; blank: true } | { line: number; tooLong: true }> {
  const ahead: TextLine[] = [];
  const peek = async (i: number) => {
    while (ahead.length <= i) {
      const next = await lines.next();
      if (next.done) return null;
      ahead.push(next.value);
    }
    return ahead[i]!;
  };
  /** How many lines from `first` make one record with the lines after it; 0 when none do. */
  const continued = async (first: TextLine) => {
    let text = first.text;
    for (let i = 0; i < MAX_RECORD_LINES - 1; i++) {
      const next = await peek(i);
      if (!next || next.tooLong) return 0;
      text += `\n${next.text}`;
      if (!oddQuotes(next.text)) continue;
      // The quotes pair up again: one record only if the parser takes it so.
      const [fields] = splitRecords([{ line: first.number, lines: i + 2, text }], delimiter, width);
      return fields ? i + 2 : 0;
    }
    return 0;
  };
  for (let line = await peek(0); line; line = await peek(0)) {
    ahead.shift();
    if (line.tooLong) yield { line: line.number, tooLong: true };
    else if (!line.text.trim()) yield { line: line.number, blank: true };
    else {
      const span = oddQuotes(line.text) ? await continued(line) : 0;
      if (span < 2) yield { line: line.number, lines: 1, text: line.text };
      else {
        const rest = ahead.splice(0, span - 1);
        yield { line: line.number, lines: span, text: [line.text, ...rest.map((l) => l.text)].join("\n") };
      }
    }
  }
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
  const lines = textLines(replay);
  await lines.next(); // the header
  let batch: Candidate[] = [];
  function* flush(): Generator<ParsedRow> {
    const split = splitRecords(batch, delimiter, header.length);
    for (const [i, c] of batch.entries()) {
      const fields = split[i];
      if (!fields) {
        yield { line: c.line, lines: c.lines, malformed: true };
        continue;
      }
      const row: Row = {};
      for (const [field, index] of indexes) row[field] = fields[index];
      yield { line: c.line, lines: c.lines, row };
    }
    batch = [];
  }
  for await (const item of candidates(lines, delimiter, header.length)) {
    if ("text" in item) {
      batch.push(item);
      if (batch.length >= BATCH) yield* flush();
      continue;
    }
    // The records before a blank or overlong line first: rows are yielded in file order.
    yield* flush();
    yield "blank" in item ? item : { line: item.line, lines: 1, malformed: true };
  }
  yield* flush();
}
