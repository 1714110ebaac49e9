// exceljs' streaming reader lost a workbook's last archive entries when it fell behind unzipper (its
// temporary file for a sheet slow to open, on a busy machine): reproduced here by delaying that file,
// without the worker's fix (ENDS_AFTER_ITS_ENTRIES) and then with it.
import { createRequire } from "node:module";
import { Readable } from "node:stream";
import { expect, it } from "vitest";
import { ENDS_AFTER_ITS_ENTRIES } from "./workbook-reader";

const require = createRequire(import.meta.url);
const exceljsPath = require.resolve("exceljs");
const ExcelJS = require(exceljsPath);
const ofExceljs = createRequire(exceljsPath);
const { Parse } = ofExceljs(ofExceljs.resolve("unzipper"));
const tmp = ofExceljs("tmp");

/** The rows of the workbook's first sheet, or the reader's error message. */
async function read(bytes: Buffer): Promise<unknown> {
  const input = new Readable({ read() {} });
  input.push(bytes);
  input.push(null);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: "cache",
    styles: "cache",
    hyperlinks: "ignore",
    worksheets: "emit",
    entries: "ignore",
  });
  const rows: unknown[] = [];
  try {
    for await (const sheet of reader) for await (const row of sheet) rows.push(row.values.slice(1));
    return rows;
  } catch (error) {
    return (error as Error).message;
  }
}

it("reads every entry of a workbook when its reader falls behind the archive's parse", async () => {
  const book = new ExcelJS.Workbook();
  book.addWorksheet("Portfolio").addRows([["cadastral_reference"], ["2749704YJ0624N0001DI"]]);
  // exceljs writes xl/workbook.xml last, after the sheet it must copy to a temporary file.
  const bytes = Buffer.from(await book.xlsx.writeBuffer());
  const { file } = tmp;
  const { emit } = Parse.prototype;
  tmp.file = (callback: unknown) => setTimeout(() => file(callback), 20);
  try {
    const without: unknown[] = [];
    for (let i = 0; i < 10; i++) without.push(await read(bytes));
    expect(without).toContain("Cannot read properties of undefined (reading 'sheets')");
    new Function("Parse", ENDS_AFTER_ITS_ENTRIES)(Parse);
    for (let i = 0; i < 10; i++) expect(await read(bytes)).toEqual([["cadastral_reference"], ["2749704YJ0624N0001DI"]]);
  } finally {
    tmp.file = file;
    Parse.prototype.emit = emit;
  }
});
