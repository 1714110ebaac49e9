// Header detection, the same for CSV and workbooks (issue 43 §2): the first row among the first 20
// naming the reference column (accepted names, or the partner's), the rows above it skipped; where
// none does, a refusal listing the accepted names (or, for a preview, the likely header).
// Rows constructed: the shapes of spreadsheet exports (a title, a date line, then the table).
import { describe, expect, it } from "vitest";
import { columnNamed, headerKey, HEADER_ROWS, likelyHeader } from "@/lib/spreadsheets/header";
import { HeaderFinder, type Wanted } from "./header";
import { ACCEPTED_NAMES, columnsOf, type ColumnChoice } from "./items";

const SUBMIT: Wanted = { whole: 0, fields: true, guess: false };
const PREVIEW: Wanted = { whole: 2, fields: false, guess: true };

/** Offers `rows` (lines from 1) until the finder answers, then ends it as the reading would. */
function find(rows: string[][], choice: ColumnChoice = ACCEPTED_NAMES, wanted: Wanted = SUBMIT) {
  const finder = new HeaderFinder(choice, wanted);
  for (const [i, row] of rows.entries()) if (finder.offer(row, i + 1)) return finder.found!;
  return finder.end();
}

const refused = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as { code: string; detail: string; errors: unknown[] };
  }
  throw new Error("not refused");
};

describe("header names", () => {
  it("compare without case, accents, spaces or hyphens", () => {
    expect(headerKey("  Referencia Catastral ")).toBe("referencia_catastral");
    expect(headerKey("REFERENCIA-CATASTRAL")).toBe("referencia_catastral");
    expect(headerKey("Préstamo")).toBe("prestamo");
    expect(columnNamed(["a", "Préstamo nº"], "prestamo NÑ")).toBe(-1);
    expect(columnNamed(["a", "Préstamo nº"], "PRESTAMO Nº")).toBe(1);
    expect(columnNamed(["a", ""], "")).toBe(-1);
  });

  it("accepted: cadastral_reference, referencia_catastral, refcat, with external_id", () => {
    expect(columnsOf(["owner", "RefCat", "External ID"])).toEqual({ reference: 1, externalId: 2 });
    expect(columnsOf(["Cadastral reference"])).toEqual({ reference: 0, externalId: null });
    expect(columnsOf(["reference", "id"])).toBeNull();
    // The partner's names instead of the accepted ones.
    expect(
      columnsOf(["refcat", "Ref. catastral", "Préstamo"], { reference: "ref. catastral", externalId: "prestamo" }),
    ).toEqual({ reference: 1, externalId: 2 });
  });

  it("the likely header is the first row with the most filled cells", () => {
    expect(likelyHeader([["Cartera"], ["ref", "id", ""], ["a", "b", "c"], ["x", "y", "z"]])).toBe(2);
    expect(
      likelyHeader([
        ["Cartera", "", ""],
        ["ref", "id"],
      ]),
    ).toBe(1);
    expect(likelyHeader([])).toBe(-1);
  });
});

describe("the header row", () => {
  const table = [
    ["Cartera hipotecaria"],
    ["Exportado el 28/11/2026", ""],
    ["Referencia catastral", "external_id", "Saldo"],
  ];

  it("is found below title rows", () => {
    expect(find([...table, ["2749704YJ0624N0001DI", "L-1", "1"]])).toMatchObject({
      line: 3,
      header: table[2],
      columns: { reference: 0, externalId: 1 },
      // Only the reference and the external id of the rows after it.
      keep: [0, 1],
      rest: [],
    });
  });

  it(`is looked for among the first ${HEADER_ROWS} rows, no further`, () => {
    const titles = (n: number) => Array.from({ length: n }, (_, i) => [`title ${i + 1}`]);
    expect(find([...titles(HEADER_ROWS - 1), ["refcat"], ["x"]])).toMatchObject({ line: HEADER_ROWS });
    const error = refused(() => find([...titles(HEADER_ROWS), ["refcat"], ["x"]]));
    expect(error).toMatchObject({ code: "validation_error" });
    expect(error.detail).toBe(
      "No row among the first 20 names a reference column: none of cadastral_reference, referencia_catastral, refcat (any case). Rename the column that holds the references, or name it with reference_column.",
    );
  });

  it("when no row names a reference column, the refusal quotes the likely header, not a data row", () => {
    const rows = [["Informe"], ["reference", "loan"], ...Array.from({ length: 28 }, () => ["x", "y"])];
    expect(refused(() => find(rows)).errors).toEqual([
      {
        line: 2,
        detail: 'header is ["reference","loan"]: none of cadastral_reference, referencia_catastral, refcat (any case)',
      },
    ]);
    // A short file: the same words (not "empty").
    expect(refused(() => find(rows.slice(1, 3))).detail).toMatch(/^No row among the first 20 names a reference column/);
    expect(refused(() => find([])).detail).toBe("The file is empty.");
  });

  it("is the first row holding the partner's column names", () => {
    const choice = { reference: "referencia catastral", externalId: "SALDO" };
    expect(find(table, choice)).toMatchObject({ line: 3, columns: { reference: 0, externalId: 2 }, keep: [0, 2] });
    expect(refused(() => find(table, { reference: "ref", externalId: null })).errors).toEqual([
      { parameter: "reference_column", detail: 'no column named "ref" in the first 20 rows' },
    ]);
    expect(refused(() => find(table, { reference: null, externalId: "loan" })).errors).toMatchObject([
      {
        parameter: "external_id_column",
        detail: expect.stringMatching(/^no column named "loan" in the header row \(line 3/),
      },
    ]);
  });

  it("a preview guesses it when no row is recognised, and keeps the rows read after it", () => {
    const rows = [["Informe"], ["Ref.", "Préstamo"], ["a", "1"], ["b", "2"], ["c", "3"]];
    expect(find(rows, ACCEPTED_NAMES, PREVIEW)).toMatchObject({
      line: 2,
      header: ["Ref.", "Préstamo"],
      columns: null,
      // The first two whole (the preview shows them), the next counted only.
      rest: [["a", "1"], ["b", "2"], []],
      whole: 0,
    });
    // Past HEADER_ROWS rows the preview settles on its guess; the later rows are the reading's.
    const long = [["Ref.", "Préstamo"], ...Array.from({ length: 30 }, (_, i) => [`r${i}`, `${i}`])];
    const finder = new HeaderFinder(ACCEPTED_NAMES, PREVIEW);
    let offered = 0;
    while (!finder.offer(long[offered]!, offered + 1)) offered++;
    expect(offered + 1).toBe(HEADER_ROWS);
    expect(finder.found).toMatchObject({ line: 1, whole: 0, keep: [] });
    expect(finder.found!.rest).toHaveLength(HEADER_ROWS - 1);
  });
});
