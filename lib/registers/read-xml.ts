// XML registers (Andalucía publishes one file per province of certificates in the national
// `DatosEnergeticosDelEdificio` schema), streamed with saxes: each record element becomes a row whose
// columns are the paths of the elements inside it, with their text.
import type { Readable } from "node:stream";
import { SaxesParser } from "saxes";
import type { Dataset } from "./datasets";
import { RegisterFileError, type ParsedRow } from "./read-error";

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/** The encoding the XML declaration names, for the decoders Node has; UTF-8 otherwise. */
function declaredEncoding(prolog: string): string {
  const label = /^\s*<\?xml[^>]*encoding=["']([^"']+)["']/i.exec(prolog)?.[1]?.toLowerCase();
  return label && /^(iso-8859-1|iso-8859-15|latin1|windows-1252|cp1252|utf-8|utf8)$/.test(label) ? label : "utf-8";
}

export async function* readXmlRows(dataset: Dataset & { xmlRecord: string }, file: string, stream: Readable, prolog: string): AsyncGenerator<ParsedRow> {
  const parser = new SaxesParser({ position: true });
  const decoder = new TextDecoder(declaredEncoding(prolog));
  const done: ParsedRow[] = [];
  let record: ParsedRow | null = null;
  let records = 0;
  const path: string[] = [];
  let text = "";
  let failure: RegisterFileError | null = null;
  parser.on("error", (error) => (failure ??= new RegisterFileError(file, parser.line, parser.column, error.message.replace(/^\d+:\d+: /, ""))));
  parser.on("opentag", (tag) => {
    const name = localName(tag.name);
    if (record) path.push(name);
    else if (name === dataset.xmlRecord) record = { line: parser.line, row: {} };
    text = "";
  });
  const onText = (chunk: string) => record && (text += chunk);
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
    const value = text.trim();
    if (value && record.row[key] === undefined) record.row[key] = value;
    path.pop();
    text = "";
  });
  const write = (chunk: string) => {
    parser.write(chunk);
    if (failure) throw failure;
  };
  for await (const chunk of stream) {
    write(decoder.decode(chunk as Buffer, { stream: true }));
    yield* done.splice(0);
  }
  write(decoder.decode());
  parser.close();
  if (failure) throw failure;
  yield* done.splice(0);
  if (!records) throw new RegisterFileError(file, parser.line, null, `no <${dataset.xmlRecord}> element: is this a ${dataset.id} file?`);
}
