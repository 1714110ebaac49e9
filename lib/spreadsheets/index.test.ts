// Workbooks are read in a worker thread under a heap cap: rows as text, and a workbook that unpacks
// to far more than its size (a decompression bomb, constructed here) refused while the process
// keeps its memory.
import { PassThrough, Readable } from "node:stream";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { excel, firstSheetRows, NotAWorkbook, readersRunning, type SheetRow } from "./index";

async function workbookOf(rows: unknown[][], sheets = 1): Promise<Buffer> {
  const ExcelJS = await excel();
  const workbook = new ExcelJS.Workbook();
  for (let s = 0; s < sheets; s++) workbook.addWorksheet(`Sheet ${s + 1}`).addRows(rows);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Polls until no reader thread of this process is alive (an exit is reported asynchronously). */
async function noReaderLeft() {
  for (let i = 0; i < 200 && readersRunning() > 0; i++) await new Promise((r) => setTimeout(r, 25));
  return readersRunning();
}

/**
 * The workbook with `xl/worksheets/sheet<n>.xml` replaced by XML no parser accepts (reading it fails
 * the workbook), its entries in Excel's order (the workbook and its relationships first; exceljs
 * writes the workbook last), and the tab named `firstTab` moved before the others.
 */
async function withBrokenSheet(workbook: Buffer, n: number, firstTab?: string): Promise<Buffer> {
  const zip = await JSZip.loadAsync(workbook);
  zip.file(`xl/worksheets/sheet${n}.xml`, "<worksheet><sheetData></row></sheetData></worksheet>");
  let xml = await zip.file("xl/workbook.xml")!.async("string");
  if (firstTab) {
    const tab = new RegExp(`<sheet [^>]*name="${firstTab}"[^>]*/>`).exec(xml)![0];
    xml = xml.replace(tab, "").replace("<sheets>", `<sheets>${tab}`);
  }
  const ordered = new JSZip();
  ordered.file("xl/workbook.xml", xml);
  for (const [name, file] of Object.entries(zip.files))
    if (!file.dir && name !== "xl/workbook.xml") ordered.file(name, await file.async("nodebuffer"));
  return ordered.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}

const all = async (rows: AsyncGenerator<SheetRow>) => {
  const out: SheetRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
};

describe("firstSheetRows", () => {
  it("reads the first sheet's rows as text, in batches the consumer paces", async () => {
    const rows = Array.from({ length: 1_234 }, (_, i) => [`ref ${i}`, i, new Date(Date.UTC(2024, 0, 1 + (i % 28)))]);
    const read = await all(firstSheetRows(Readable.from(await workbookOf(rows, 2))));
    expect(read).toHaveLength(1_234);
    expect(read[0]).toEqual({ sheet: "Sheet 1", line: 1, values: ["ref 0", "0", "2024-01-01"] });
    expect(read.at(-1)!.values[0]).toBe("ref 1233");
  });

  it("refuses a workbook that needs more memory than its cap, and the process goes on", async () => {
    // 40,000 distinct 1 KiB strings: 40 MiB of shared strings from an archive of well under 1 MiB.
    const filler = "x".repeat(1_000);
    const bomb = await workbookOf(Array.from({ length: 40_000 }, (_, i) => [`${i}${filler}`]));
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    await expect(all(firstSheetRows(Readable.from(bomb), { heapMb: 16 }))).rejects.toThrow(
      /the workbook needs more than 16 MiB of memory to read/,
    );
    // The cap is what refused it: a small workbook reads under the same cap.
    expect(await all(firstSheetRows(Readable.from(await workbookOf([["a", 1]])), { heapMb: 16 }))).toHaveLength(1);
    // The same file reads under the default cap.
    expect(await all(firstSheetRows(Readable.from(bomb)))).toHaveLength(40_000);
  });

  it("refuses an archive entry that unpacks to more than its cap, as it unpacks", async () => {
    // 200,000 rows of one long repeated cell: a sheet of about 60 MiB in an archive under 2 MiB.
    const sheet = await workbookOf(Array.from({ length: 200_000 }, () => ["y".repeat(300)]));
    expect(sheet.length).toBeLessThan(2 * 1024 * 1024);
    const error = await all(firstSheetRows(Readable.from(sheet), { entryMaxMb: 8 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAWorkbook);
    expect((error as Error).message).toMatch(/an archive entry unpacks to more than 8 MiB/);
    // The same workbook under a cap it fits reads whole.
    expect(await all(firstSheetRows(Readable.from(sheet), { entryMaxMb: 128 }))).toHaveLength(200_000);
  });

  it("says when the bytes are not a workbook", async () => {
    const error = await all(firstSheetRows(Readable.from(Buffer.from("PK\u0003\u0004 not really a zip")))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotAWorkbook);
  });

  it("throws the bytes' own failure (a size cap) as it is", async () => {
    const bytes = await workbookOf([["a"]]);
    const source = new PassThrough();
    source.write(bytes.subarray(0, 100));
    setTimeout(() => source.destroy(new Error("the file is over its size cap")), 50);
    await expect(all(firstSheetRows(source))).rejects.toThrow("the file is over its size cap");
  });

  it("stops its worker when the consumer stops early", async () => {
    const rows = firstSheetRows(Readable.from(await workbookOf(Array.from({ length: 2_000 }, (_, i) => [i]))));
    const first = await rows.next();
    expect(first.value).toMatchObject({ line: 1, values: ["0"] });
    await rows.return(undefined);
    expect(await rows.next()).toEqual({ done: true, value: undefined });
  });

  it("parses only the first sheet in the workbook's order: another sheet's XML is never read", async () => {
    const ExcelJS = await excel();
    const book = new ExcelJS.Workbook();
    book.addWorksheet("One").addRows([["one", 1]]);
    book.addWorksheet("Two").addRows([["two", 2]]);
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    // The second sheet broken: read whole, it would fail the workbook.
    const first = await all(firstSheetRows(Readable.from(await withBrokenSheet(bytes, 2))));
    expect(first).toEqual([{ sheet: "One", line: 1, values: ["one", "1"] }]);
    // The second sheet's file first in tab order: it is the one read, and the other is not.
    const moved = await all(firstSheetRows(Readable.from(await withBrokenSheet(bytes, 1, "Two"))));
    expect(moved).toEqual([{ sheet: "Two", line: 1, values: ["two", "2"] }]);
    // Reading a broken sheet does fail: the sheets skipped above would have been refused.
    await expect(all(firstSheetRows(Readable.from(await withBrokenSheet(bytes, 1))))).rejects.toThrow(NotAWorkbook);
    // exceljs' own order (the workbook after the sheets): the first sheet entry is read, the rest are not.
    const zip = await JSZip.loadAsync(bytes);
    zip.file("xl/worksheets/sheet2.xml", "<worksheet><sheetData></row></sheetData></worksheet>");
    const own = await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
    expect(await all(firstSheetRows(Readable.from(own)))).toEqual(first);
    expect(await noReaderLeft()).toBe(0);
  });

  it("ends its worker as soon as the request's signal aborts", async () => {
    // The client gives up while the worker waits for the rest of the bytes.
    const bytes = await workbookOf(Array.from({ length: 2_000 }, (_, i) => [i]));
    const source = new PassThrough();
    source.write(bytes.subarray(0, bytes.length >> 1));
    const gone = new AbortController();
    const rows = firstSheetRows(source, { signal: gone.signal });
    const reading = rows.next();
    while (readersRunning() === 0) await new Promise((r) => setTimeout(r, 10));
    gone.abort(new Error("the client went away"));
    await expect(reading).rejects.toThrow("the client went away");
    expect(await noReaderLeft()).toBe(0);
    // An aborted request starts no worker at all.
    await expect(all(firstSheetRows(Readable.from(bytes), { signal: gone.signal }))).rejects.toThrow(/went away/);
  });

  it("ends its worker once it has worked longer than its limit, and refuses the workbook", async () => {
    // 200,000 rows: far more than a tenth of a second's work on any machine.
    const long = await workbookOf(Array.from({ length: 200_000 }, (_, i) => [`row ${i}`, i]));
    const error = await all(firstSheetRows(Readable.from(long), { cpuSeconds: 0.1 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAWorkbook);
    expect((error as Error).message).toMatch(/reading the workbook took more than 0.1 s of work: refused/);
    expect(await noReaderLeft()).toBe(0);
    // A workbook within its limit reads whole (without one, 200,000 rows do: the entry cap's test).
    expect(await all(firstSheetRows(Readable.from(await workbookOf([["a"]])), { cpuSeconds: 10 }))).toHaveLength(1);
  });

  it("refuses a workbook whose rows hold more text than it may send to the reading thread", async () => {
    const bytes = await workbookOf(Array.from({ length: 100 }, () => ["abcdefghij"]));
    const error = await all(firstSheetRows(Readable.from(bytes), { maxTextChars: 500 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAWorkbook);
    expect((error as Error).message).toBe("refused: its rows hold more than 500 characters of text");
    expect(await all(firstSheetRows(Readable.from(bytes), { maxTextChars: 1000 }))).toHaveLength(100);
  });
});
