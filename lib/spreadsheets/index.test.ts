// Workbooks are read in a worker thread under a heap cap: rows as text, and a workbook that unpacks
// to far more than its size (a decompression bomb, constructed here) refused while the process
// keeps its memory.
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { excel, firstSheetRows, NotAWorkbook, type SheetRow } from "./index";

async function workbookOf(rows: unknown[][], sheets = 1): Promise<Buffer> {
  const ExcelJS = await excel();
  const workbook = new ExcelJS.Workbook();
  for (let s = 0; s < sheets; s++) workbook.addWorksheet(`Sheet ${s + 1}`).addRows(rows);
  return Buffer.from(await workbook.xlsx.writeBuffer());
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
});
