// XLSX workbooks (Asturias and Cantabria publish nothing else; operators re-save awkward files as
// XLSX, Castilla-La Mancha's `.xls` among them), streamed with exceljs' workbook reader: rows of the
// first sheet. Publishers put title lines above the header, so the header is the first of the top
// rows that names every column the dataset needs (else the top row that names most of them).
import type { Readable } from "node:stream";
import ExcelJS from "exceljs";
import type { Dataset, Row } from "./datasets";
import { matchHeader, type ColumnOverrides, type HeaderMatch } from "./columns";
import type { FileShape, ReadItem } from "./read";
import { RegisterFileError } from "./read-error";

/** How far down the first sheet the header may sit. */
const HEADER_ROWS = 10;

/** A cell as the CSV of the same sheet would show it; dates as YYYY-MM-DD. */
function cellText(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== "object") return String(value);
  if ("richText" in value) return value.richText.map((part) => part.text).join("");
  if ("formula" in value || "sharedFormula" in value)
    return cellText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
  if ("text" in value) return String(value.text);
  return "";
}

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
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(stream, {
    sharedStrings: "cache",
    styles: "cache",
    hyperlinks: "ignore",
    worksheets: "emit",
    entries: "ignore",
  });
  let header: HeaderRow | null = null as HeaderRow | null;
  let best: HeaderRow | null = null as HeaderRow | null;
  let indexes: (readonly [string, number])[] = [];
  let line = 0;
  let sheets = 0;
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
    for await (const sheet of workbook) {
      // Every sheet is read to its end (the reader moves on only then); rows come from the first.
      const first = sheets++ === 0;
      const name = (sheet as unknown as { name?: string }).name ?? "1";
      for await (const row of sheet) {
        if (!first) continue;
        line = row.number;
        const values = (row.values as ExcelJS.CellValue[]).map((v) => cellText(v).trim());
        if (header) {
          const record: Row = {};
          for (const [field, index] of indexes) record[field] = values[index] ?? "";
          yield { line, row: record };
          continue;
        }
        const candidate: HeaderRow = { line, names: values, match: matchHeader(dataset, values, overrides) };
        if (!best || found(candidate.match) > found(best.match)) best = candidate;
        if (!candidate.match.missing.length || line >= HEADER_ROWS)
          yield start(candidate.match.missing.length ? best : candidate, name);
      }
      if (first && !header && best) yield start(best, name);
    }
  } catch (error) {
    if (error instanceof RegisterFileError) throw error;
    throw new RegisterFileError(file, line, null, `not a readable XLSX workbook (${(error as Error).message})`);
  }
  if (!sheets)
    throw new RegisterFileError(
      file,
      1,
      null,
      "a ZIP archive holding no workbook: extract it and import the files inside",
    );
  if (!header) throw new RegisterFileError(file, 1, null, "the first sheet has no rows");
}
