// Files a CSV parser cannot split (Galicia's register: nothing quoted, commas inside addresses and
// inside a parenthesised note at the end): each line of the decoded text is named by position from
// both ends. The file's own first line is a header and only skipped; a line too short to hold the
// fields is counted, not quoted.
import type { Dataset, Row } from "./datasets";
import { matchHeader } from "./columns";
import type { DecodedText } from "./decode";
import type { FileShape, ReadItem } from "./shape";

type Layout = NonNullable<Dataset["positional"]>;

/** The text's lines, each with its number. */
async function* lines(text: DecodedText): AsyncGenerator<{ number: number; line: string }> {
  let rest = "";
  let number = 0;
  for await (const chunk of text.chunks) {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop()!;
    for (const line of parts) yield { number: ++number, line: line.replace(/\r$/, "") };
  }
  if (rest) yield { number: ++number, line: rest.replace(/\r$/, "") };
}

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
  for await (const { number, line } of lines(text)) {
    if (number === 1 || !line.trim()) continue;
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
