// Files a CSV parser cannot split (Galicia's register: nothing quoted, commas inside addresses and
// inside a parenthesised note at the end): each line of the decoded text is named by position from
// both ends. The file's own first line is a header and only skipped; a line too short to hold the
// fields is counted, not quoted; blank lines are told apart.
import type { Dataset, Row } from "./datasets";
import { matchHeader } from "./columns";
import type { DecodedText } from "./decode";
import { textLines } from "./lines";
import type { FileShape, ReadItem } from "./shape";

type Layout = NonNullable<Dataset["positional"]>;

export async function* readPositionalRows(
  dataset: Dataset & { positional: Layout },
  text: DecodedText,
): AsyncGenerator<ReadItem> {
  const { head, middle, tail, drop } = dataset.positional;
  const header = [...head, middle, ...tail];
  const shape: FileShape = {
    format: "positional CSV",
    delimiter: ",",
    sheet: null,
    element: null,
    headerLine: 1,
    header,
    match: matchHeader(dataset, header, {}),
    encoding: () => ({ encoding: text.encoding(), switchedAtLine: text.switchedAtLine() }),
  };
  yield { shape };
  for await (const { number, text: line, tooLong } of textLines(text.chunks)) {
    if (number === 1) continue;
    if (tooLong) {
      yield { line: number, malformed: true };
      continue;
    }
    if (!line.trim()) {
      yield { line: number, blank: true };
      continue;
    }
    const fields = (drop ? line.replace(drop, "") : line).split(",");
    if (fields.length < head.length + tail.length) {
      yield { line: number, malformed: true };
      continue;
    }
    const named: Record<string, string> = {
      [middle]: fields.slice(head.length, fields.length - tail.length).join(","),
    };
    for (const [i, name] of head.entries()) named[name] = fields[i]!;
    for (const [i, name] of tail.entries()) named[name] = fields[fields.length - tail.length + i]!;
    const row: Row = {};
    for (const c of shape.match.columns) row[c.field] = c.found === null ? undefined : named[c.found]?.trim();
    yield { line: number, row };
  }
}
