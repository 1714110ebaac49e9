import { stringify } from "csv-stringify/sync";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvLines } from "./results";

// csv-stringify (with escape_formulas) is the reference the hand-written writer must match, but for
// one thing: with CRLF records it leaves a lone CR or LF in a cell unquoted, which splits the row
// for any reader; those cells are quoted here and checked by reading them back.
const reference = (rows: (string | number | null)[][]) =>
  stringify(rows, { record_delimiter: "\r\n", escape_formulas: true });

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
    " padded ",
    "ñandú, Cádiz",
    "'quoted already",
  ];

  it("writes every kind of cell exactly as csv-stringify does", () => {
    const plain = cells.filter((c) => typeof c !== "string" || !/[\r\n]/.test(c));
    for (const cell of plain) expect(csvLines([[cell]]), JSON.stringify(cell)).toBe(reference([[cell]]));
    const rows = [plain, [...plain].reverse(), [null, null], ["only"]];
    expect(csvLines(rows)).toBe(reference(rows));
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
