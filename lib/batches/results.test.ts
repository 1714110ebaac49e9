import { stringify } from "csv-stringify/sync";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { estimateEnergyCertificate } from "@/lib/enrichment/estimate";
import { csvLines, neutralised, RESULT_COLUMNS, resultCells, type Result } from "./results";

// csv-stringify is the reference the hand-written writer must match: every field holding a
// separator of some reader (`;` for Spanish-locale Excel) quoted, formula starts neutralised.
const reference = (rows: (string | number | null)[][]) =>
  stringify(rows, { record_delimiter: "\r\n", quoted_match: /[;,"\t\r\n]/, cast: { string: neutralised } });

describe("csvLines", () => {
  const cells: (string | number | null)[] = [
    null,
    "",
    "plain",
    0,
    42,
    -3.5,
    1e21,
    "a,b",
    'say "hi"',
    "two\nlines",
    "cr\rhere",
    "crlf\r\n",
    "=SUM(A1)",
    "+34 600",
    "-1",
    "@cmd",
    "\tTab",
    "\rCR",
    "\uFF1Dx",
    "\uFF0Bx",
    "\uFF0Dx",
    "\uFF20x",
    '=HYPERLINK("http://x")',
    "a;b",
    "a;=1",
    "tab\there",
    "x,@y",
    " padded ",
    "ñandú, Cádiz",
    "'quoted already",
  ];

  it("writes every kind of cell exactly as csv-stringify does", () => {
    for (const cell of cells) expect(csvLines([[cell]]), JSON.stringify(cell)).toBe(reference([[cell]]));
    const rows = [cells, [...cells].reverse(), [null, null], ["only"]];
    expect(csvLines(rows)).toBe(reference(rows));
  });

  it("quotes a field holding ; (Spanish Excel's separator) or a tab, and neutralises formulas after separators", () => {
    const cases: [string, string][] = [
      ["a;b", '"a;b"'],
      ["a\tb", '"a\tb"'],
      ['Calle Mayor;=HYPERLINK("http://x")', '"Calle Mayor;\'=HYPERLINK(""http://x"")"'],
      ["x,+1", '"x,\'+1"'],
      ["two\n@cmd", '"two\n\'@cmd"'],
      ["crlf\r\n-1", '"crlf\r\n\'-1"'],
      ['q"=1', '"q""\'=1"'],
      ["a;;\uFF1Dx", '"a;;\'\uFF1Dx"'],
      ["no formula: a-b=c", "no formula: a-b=c"],
    ];
    for (const [cell, written] of cases) expect(csvLines([[cell]]), cell).toBe(`${written}\r\n`);
    // However a reader splits such a cell, no piece starts a formula.
    for (const [cell] of cases)
      for (const piece of (parse(csvLines([[cell]])) as string[][])[0]![0]!.split(/[;,"\t\r\n]/))
        expect(piece, cell).not.toMatch(/^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/);
  });

  it("writes booleans as true and false (csv-stringify's default would write 1 and an empty cell)", () => {
    expect(csvLines([[true, false, null]])).toBe("true,false,\r\n");
  });

  it("reads back as written: line breaks inside cells, formulas prefixed with a quote, numbers alone", () => {
    const rows = parse(
      csvLines([
        ["=1+1", -2, 'a,"b"\nc', null],
        ["two\nlines", "cr\rhere", "\rCR", "end"],
      ]),
    );
    expect(rows).toEqual([
      ["'=1+1", "-2", 'a,"b"\nc', ""],
      ["two\nlines", "cr\rhere", "'\rCR", "end"],
    ]);
  });
});

describe("resultCells", () => {
  it("carries an estimate's confidence and plausible range; a registry certificate leaves them empty", () => {
    const estimate = estimateEnergyCertificate({ yearBuilt: 1975, climateZone: "D3", use: "Residencial", ccaa: null })!;
    const cells = (energy_certificate: unknown) => {
      const row = resultCells({
        item: { line: 1 } as Result["item"],
        property: {
          energy_certificate,
          enrichment: { energy_certificate: {} },
          attribution: [],
        } as unknown as Result["property"],
      });
      const at = (name: string) => row[RESULT_COLUMNS.indexOf(name)];
      return [at("estimate_confidence"), at("estimate_range_from"), at("estimate_range_to")];
    };
    expect(cells(estimate)).toEqual(["low", estimate.plausible_range!.from, estimate.plausible_range!.to]);
    expect(estimate.plausible_range!.from <= estimate.rating && estimate.rating <= estimate.plausible_range!.to).toBe(
      true,
    );
    expect(cells({ ...estimate, source: "registry", confidence: null, plausible_range: null })).toEqual([
      null,
      null,
      null,
    ]);
  });

  it("carries ITE overdue, the certificate's as_of, the attribution joined with '; ' and enriched_at", () => {
    const row = resultCells({
      item: { line: 1 } as Result["item"],
      property: {
        ite: { overdue: true },
        enrichment: { energy_certificate: { as_of: "2026-10-01" } },
        attribution: ["Dirección General del Catastro", "Institut Català d'Energia"],
        enriched_at: "2026-11-28T10:00:00.000Z",
      } as unknown as Result["property"],
    });
    expect(RESULT_COLUMNS.slice(-4)).toEqual(["ite_overdue", "energy_as_of", "attribution", "enriched_at"]);
    expect(row.slice(-4)).toEqual([
      true,
      "2026-10-01",
      "Dirección General del Catastro; Institut Català d'Energia",
      "2026-11-28T10:00:00.000Z",
    ]);
  });
});
