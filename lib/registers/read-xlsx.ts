// XLSX workbooks (Asturias and Cantabria publish nothing else; operators re-save awkward files as
// XLSX, Castilla-La Mancha's `.xls` among them), streamed with exceljs' workbook reader: rows of the
// first sheet. Publishers put title lines above the header, so the header is the first of the top
// rows that names every column the dataset needs (else the top row that names most of them).
import type { Readable } from "node:stream";
import { firstSheetRows, NotAWorkbook } from "@/lib/spreadsheets";
import type { Dataset, Row } from "./datasets";
import { matchHeader, type ColumnOverrides, type HeaderMatch } from "./columns";
import type { FileShape, ReadItem } from "./shape";
import { RegisterFileError } from "./read-error";

/** How far down the first sheet the header may sit. */
const HEADER_ROWS = 10;

const found = (match: HeaderMatch) => match.columns.filter((c) => c.found !== null).length;

interface HeaderRow {
  line: number;
  names: string[];
  match: HeaderMatch;
}

export async function* readXlsxRows(
  dataset: Dataset,
  file: string,
  stream: Readable,
  overrides: ColumnOverrides,
): AsyncGenerator<ReadItem> {
  let header: HeaderRow | null = null as HeaderRow | null;
  let best: HeaderRow | null = null as HeaderRow | null;
  let indexes: (readonly [string, number])[] = [];
  let line = 0;
  let sheet = "1";
  const start = (chosen: HeaderRow, sheet: string): ReadItem => {
    header = chosen;
    indexes = chosen.match.columns
      .filter((c) => c.found !== null)
      .map((c) => [c.field, chosen.names.indexOf(c.found!)] as const);
    const shape: FileShape = {
      format: "XLSX",
      delimiter: null,
      sheet,
      element: null,
      headerLine: chosen.line,
      header: chosen.names.filter(Boolean),
      match: chosen.match,
      encoding: null,
    };
    return { shape };
  };
  try {
    for await (const row of firstSheetRows(stream)) {
      ({ line, sheet } = row);
      const values = row.values;
      if (header) {
        const record: Row = {};
        for (const [field, index] of indexes) record[field] = values[index] ?? "";
        yield { line, row: record };
        continue;
      }
      const candidate: HeaderRow = { line, names: values, match: matchHeader(dataset, values, overrides) };
      if (!best || found(candidate.match) > found(best.match)) best = candidate;
      if (!candidate.match.missing.length || line >= HEADER_ROWS)
        yield start(candidate.match.missing.length ? best : candidate, sheet);
    }
  } catch (error) {
    if (error instanceof NotAWorkbook) throw new RegisterFileError(file, line || 1, null, error.message);
    throw error;
  }
  if (!header && best) yield start(best, sheet);
  if (!header) throw new RegisterFileError(file, 1, null, "the first sheet has no rows");
}
