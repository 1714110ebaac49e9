// The CSV dialects partners' spreadsheets write, all read to the same items; a workbook's empty
// cells read as empty.
import { describe, expect, it } from "vitest";
import { checkLetters } from "@/lib/cadastral-reference";
import { useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { allItems, batchOf, postCsv, postXlsx, workbookOf } from "../support/batches";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources(), env: { BATCH_MAX_ACTIVE: "100" } }, (ctx) => ({ t, key } = ctx));

const unit = (parcel: string) => parcel + "0001" + checkLetters(parcel + "0001");
const A = unit("2749704YJ0624N");
const B = unit("9872023VH5797S");

const itemsOf = (csv: string | Uint8Array) => itemsOfRequest(postCsv(csv, { "X-API-Key": key }));

async function itemsOfRequest(req: Request) {
  const res = await t.api.createBatch(req);
  expect(res.status).toBe(202);
  const batch = await batchOf(res);
  return (await allItems(t, key, batch.batch_id)).map((i) => [i.line, i.cadastral_reference, i.external_id, i.status]);
}

const expected = [
  [1, A, "loan-1", "pending"],
  [2, B, "loan-2", "pending"],
];

describe("POST /batches (CSV dialects)", () => {
  it("comma, LF", async () =>
    expect(await itemsOf(`cadastral_reference,external_id\n${A},loan-1\n${B},loan-2\n`)).toEqual(expected));
  it("semicolon, CRLF, a BOM", async () =>
    expect(await itemsOf(`\uFEFFcadastral_reference;external_id\r\n${A};loan-1\r\n${B};loan-2\r\n`)).toEqual(expected));
  it("a BOM as bytes, no trailing newline", async () =>
    expect(
      await itemsOf(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(`refcat,external_id\n${A},loan-1\n${B},loan-2`)])),
    ).toEqual(expected));
  it("quoted fields holding the separator, quotes and a line break", async () =>
    expect(
      await itemsOf(
        `"address";"cadastral_reference";"external_id"\n"C/ Mayor; 1, ""bajo""\n2º";"${A}";"loan-1"\n"x";"${B}";"loan-2"\n`,
      ),
    ).toEqual(expected));
  it.each([
    ["REFCAT"],
    ["Referencia Catastral"],
    ["referencia-catastral"],
    [" Cadastral_Reference "],
    ["Referéncia_Catastral"],
  ])("header spelled %j", async (header) =>
    expect(await itemsOf(`${header},External_ID\n${A},loan-1\n${B},loan-2\n`)).toEqual(expected),
  );
  it("extra columns in any order are ignored; without an external_id column, ids are null", async () =>
    expect(
      await itemsOf(
        `owner,province,refcat,notes\nAna,Madrid,${A},x\nLuis,Sevilla,"${B.slice(0, 7)}-${B.slice(7)}",y\n`,
      ),
    ).toEqual([
      [1, A, null, "pending"],
      [2, B, null, "pending"],
    ]));
  it("references written loosely are normalised; bad rows become invalid items, not a refused file", async () => {
    const rows = await itemsOf(`refcat,external_id\n" ${A.toLowerCase()} ",1\n,2\nnot-a-reference,3\n${A},4\nshort,\n`);
    expect(rows).toEqual([
      [1, A, "1", "pending"],
      [2, "", "2", "invalid"],
      [3, "not-a-reference", "3", "invalid"],
      [4, A, "4", "duplicate"],
      [5, "short", null, "invalid"],
    ]);
  });
  it("CRLF and LF lines in one file (rows appended by another tool), each its own row", async () =>
    expect(await itemsOf(`refcat,external_id\r\n${A},loan-1\n${B},loan-2\r\n`)).toEqual(expected));
  it("empty lines are skipped; short rows read as empty cells", async () =>
    expect(await itemsOf(`external_id,refcat\n\nloan-1,${A}\n\nloan-2,${B}\nloan-3\n`)).toEqual([
      ...expected,
      [3, "", "loan-3", "invalid"],
    ]));
});

describe("POST /batches (a workbook's empty cells)", () => {
  it("reads a cell left empty before a filled one as empty, in the header and in data rows", async () =>
    expect(
      await itemsOfRequest(
        postXlsx(
          await workbookOf([
            [null, "refcat", null, "external_id"],
            [null, A, null, "loan-1"],
            ["x", B, null, "loan-2"],
          ]),
          { "X-API-Key": key },
        ),
      ),
    ).toEqual(expected));
});
