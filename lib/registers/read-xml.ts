// XML registers (Andalucía publishes one file per province of certificates in the national
// `DatosEnergeticosDelEdificio` schema), streamed with saxes: each record element becomes a row of
// the paths of the elements inside it, with their text. The text is decoded as its bytes say,
// whatever the declaration claims (a file declared ISO-8859-1 and written in UTF-8 reads right).
import { SaxesParser } from "saxes";
import type { Dataset, Row } from "./datasets";
import { matchHeader, type ColumnOverrides } from "./columns";
import type { DecodedText } from "./decode";
import type { FileShape, ReadItem } from "./shape";
import { RegisterFileError } from "./read-error";

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/**
 * Longest run of characters between two markup characters (an element's text, an attribute's
 * value) and most leaf values in one record: a register's values are short, and saxes holds a text
 * node whole until it ends (one of 400 MB took 1.3 GB). Past either, the file is refused.
 */
export const MAX_XML_TEXT_CHARS = 1024 * 1024;
export const MAX_XML_RECORD_VALUES = 10_000;

/** The longest run of `chunk` without `<` or `>` (`carried` characters of one went before it), and its trailing run. */
function markupRuns(chunk: string, carried: number): { longest: number; trailing: number } {
  let longest = 0;
  let from = 0;
  let carry = carried;
  for (let i = 0; i < chunk.length; i++) {
    const code = chunk.charCodeAt(i);
    if (code === 60 || code === 62) {
      longest = Math.max(longest, carry + i - from);
      carry = 0;
      from = i + 1;
    }
  }
  const trailing = carry + chunk.length - from;
  return { longest: Math.max(longest, trailing), trailing };
}

interface XmlRecord {
  line: number;
  values: Record<string, string>;
}

export async function* readXmlRows(
  dataset: Dataset & { xmlRecord: string },
  file: string,
  text: DecodedText,
  overrides: ColumnOverrides,
): AsyncGenerator<ReadItem> {
  const parser = new SaxesParser({ position: true });
  const done: XmlRecord[] = [];
  let record: XmlRecord | null = null;
  let records = 0;
  const path: string[] = [];
  let chars = "";
  parser.on("opentag", (tag) => {
    const name = localName(tag.name);
    if (record) path.push(name);
    else if (name === dataset.xmlRecord) record = { line: parser.line, values: {} };
    chars = "";
  });
  const onText = (chunk: string) => record && (chars += chunk);
  parser.on("text", onText);
  parser.on("cdata", onText);
  parser.on("closetag", () => {
    if (!record) return;
    if (!path.length) {
      done.push(record);
      records++;
      record = null;
      return;
    }
    // A leaf's text; a repeated path keeps its first value.
    const key = path.join("/");
    const value = chars.trim();
    if (value && record.values[key] === undefined) {
      if (Object.keys(record.values).length >= MAX_XML_RECORD_VALUES)
        throw new RegisterFileError(
          file,
          parser.line,
          null,
          `a <${dataset.xmlRecord}> holds more than ${MAX_XML_RECORD_VALUES.toLocaleString("en")} values: not a register record`,
        );
      record.values[key] = value;
    }
    path.pop();
    chars = "";
  });
  let candidates: (readonly [string, readonly string[]])[] | null = null;
  /** The shape from the first record, then each record by field (any of a field's paths). */
  function* emit(): Generator<ReadItem> {
    for (const { line, values } of done.splice(0)) {
      if (!candidates) {
        const header = Object.keys(values);
        const match = matchHeader(dataset, header, overrides);
        candidates = match.columns.map((c) => [c.field, c.expected] as const);
        const shape: FileShape = {
          format: "XML",
          delimiter: null,
          sheet: null,
          element: dataset.xmlRecord,
          headerLine: line,
          header,
          match,
          encoding: () => ({ encoding: text.encoding(), switchedAtLine: text.switchedAtLine() }),
        };
        yield { shape };
      }
      const row: Row = {};
      for (const [field, paths] of candidates) row[field] = paths.map((p) => values[p]).find((v) => v !== undefined);
      yield { line, row };
    }
  }
  yield* feedXml(parser, file, text, dataset.id, emit);
  if (!records)
    throw new RegisterFileError(
      file,
      parser.line,
      null,
      `no <${dataset.xmlRecord}> element: is this a ${dataset.id} file?`,
    );
}

/**
 * Feeds a decoded text to `parser` chunk by chunk: a file that does not start with a tag is no XML
 * (`what` names the files expected), and a text between two tags longer than MAX_XML_TEXT_CHARS is
 * refused before saxes holds it. After each chunk, `drain` gives what the handlers completed. A
 * saxes error, or one a handler throws, ends the file at its position.
 */
export async function* feedXml<T>(
  parser: SaxesParser,
  file: string,
  text: DecodedText,
  what: string,
  drain: () => Iterable<T>,
): AsyncGenerator<T> {
  const state: { failure: Error | null } = { failure: null };
  // saxes names only structure ("unexpected close tag."); the part after a colon may quote the file.
  parser.on("error", (error) => {
    const where = error.message.replace(/^\d+:\d+: /, "").split(":")[0]!;
    state.failure ??= new RegisterFileError(file, parser.line, parser.column, where);
  });
  let started = false;
  // Characters since the last markup character, across chunks.
  let run = 0;
  for await (const chunk of text.chunks) {
    if (!started && chunk.trim()) {
      if (!chunk.trimStart().startsWith("<"))
        throw new RegisterFileError(file, 1, null, `${what} files are XML; this one does not start with a tag`);
      started = true;
    }
    const runs = markupRuns(chunk, run);
    run = runs.trailing;
    if (runs.longest > MAX_XML_TEXT_CHARS)
      throw new RegisterFileError(
        file,
        parser.line,
        null,
        `a text or attribute value longer than ${MAX_XML_TEXT_CHARS.toLocaleString("en")} characters: not a register file`,
      );
    try {
      parser.write(chunk);
    } catch (error) {
      state.failure ??= error instanceof Error ? error : new Error(String(error));
    }
    if (state.failure) throw state.failure;
    yield* drain();
  }
  parser.close();
  if (state.failure) throw state.failure;
  yield* drain();
}
