// Reading XLSX workbooks as rows of text (exceljs' streaming reader): the first sheet, each cell as
// the CSV of the same sheet would show it. Formulas are never evaluated: a formula cell reads as the
// result the workbook stored with it, or empty.
import type { Readable } from "node:stream";
import type ExcelJS from "exceljs";

/** exceljs, loaded when a workbook is first read or written: it holds 25 MiB a server never needing one would keep. */
export const excel = async (): Promise<typeof ExcelJS> => (await import("exceljs")).default;

/** A cell as text; dates as YYYY-MM-DD. */
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

export interface SheetRow {
  /** The first sheet's name. */
  sheet: string;
  /** The row's number in the sheet (1-based; empty rows are skipped, so numbers may jump). */
  line: number;
  /** Cell texts, trimmed, from column A. */
  values: string[];
}

/** Thrown when the bytes are not a workbook exceljs can read (the message says why). */
export class NotAWorkbook extends Error {}

/** The first sheet's rows. A ZIP without a workbook, or a damaged one, ends in NotAWorkbook. */
export async function* firstSheetRows(stream: Readable): AsyncGenerator<SheetRow> {
  const options = {
    sharedStrings: "cache",
    styles: "cache",
    hyperlinks: "ignore",
    worksheets: "emit",
    entries: "ignore",
  } as const;
  const workbook = new (await excel()).stream.xlsx.WorkbookReader(stream, options);
  let sheets = 0;
  try {
    for await (const sheet of workbook) {
      // Every sheet is read to its end (the reader moves on only then); rows come from the first.
      const first = sheets++ === 0;
      const name = (sheet as unknown as { name?: string }).name ?? "1";
      for await (const row of sheet) {
        // row.values is 1-based: index 0 is always empty.
        if (first)
          yield {
            sheet: name,
            line: row.number,
            values: (row.values as ExcelJS.CellValue[]).slice(1).map((v) => cellText(v).trim()),
          };
      }
    }
  } catch (error) {
    // The bytes' own source failed (a size cap, a client gone): that, not the workbook, is the error.
    if (stream.errored) throw stream.errored;
    throw new NotAWorkbook(`not a readable XLSX workbook (${(error as Error).message})`);
  } finally {
    // The reader is done with the bytes (read through, refused, or left by our caller). A failure of
    // their source from now on (a file our caller closes under a read still pending) would be emitted
    // to no listener, an uncaught exception: whoever needed to know has had their answer.
    stream.on("error", () => {});
  }
  if (!sheets) throw new NotAWorkbook("a ZIP archive holding no workbook: extract it and use the files inside");
}
