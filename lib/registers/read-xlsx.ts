// XLSX workbooks (Asturias and Cantabria publish nothing else; operators re-save awkward files as
// XLSX), streamed with exceljs' workbook reader: rows of the first sheet, named by its header row.
// Publishers put title lines above the header, so the header is the first of the top rows that
// names every column the dataset needs.
import type { Readable } from "node:stream";
import ExcelJS from "exceljs";
import type { Dataset, Row } from "./datasets";
import { RegisterFileError, type ParsedRow } from "./read-error";

/** How far down the first sheet the header may sit. */
const HEADER_ROWS = 10;

/** A cell as the CSV of the same sheet would show it; dates as YYYY-MM-DD. */
function cellText(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== "object") return String(value);
  if ("richText" in value) return value.richText.map((part) => part.text).join("");
  if ("formula" in value || "sharedFormula" in value) return cellText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
  if ("text" in value) return String(value.text);
  return "";
}

export async function* readXlsxRows(dataset: Dataset, file: string, stream: Readable): AsyncGenerator<ParsedRow> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(stream, { sharedStrings: "cache", styles: "cache", hyperlinks: "ignore", worksheets: "emit", entries: "ignore" });
  let names: string[] | null = null;
  let line = 0;
  let sheets = 0;
  try {
    for await (const sheet of workbook) {
      // Every sheet is read to its end (the reader moves on only then); rows come from the first.
      const first = sheets++ === 0;
      for await (const row of sheet) {
        if (!first) continue;
        line = row.number;
        const values = (row.values as ExcelJS.CellValue[]).map((v) => cellText(v).trim());
        if (names) {
          const record: Row = {};
          names.forEach((name, i) => name && (record[name] = values[i] ?? ""));
          yield { line, row: record };
        } else if (dataset.required.every((name) => values.includes(name))) names = values;
        else if (line >= HEADER_ROWS) throw noHeader(dataset, file);
      }
    }
  } catch (error) {
    if (error instanceof RegisterFileError) throw error;
    throw new RegisterFileError(file, line, null, `not a readable XLSX workbook (${(error as Error).message})`);
  }
  if (!sheets) throw new RegisterFileError(file, 1, null, "a ZIP archive holding no workbook: extract it and import the files inside");
  if (!names) throw noHeader(dataset, file);
}

const noHeader = (dataset: Dataset, file: string) =>
  new RegisterFileError(file, 1, null, `no row among the first ${HEADER_ROWS} of the first sheet names the columns ${dataset.required.map((m) => `"${m}"`).join(", ")} that ${dataset.id} needs`);
