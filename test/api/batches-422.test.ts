import { describe, expect, it } from "vitest";
import { BASE, problemOf, useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { postCsv, postJson, postXlsx, workbookOf } from "../support/batches";

let t: TestApp;
let key: string;
useTestApp(
  {
    sources: fakeSources(),
    env: {
      BATCH_MAX_ITEMS: "5",
      BATCH_MAX_BYTES: String(1024 * 1024),
      BATCH_MAX_ACTIVE: "100",
      BATCH_MAX_ROW_CHARS: "2048",
      BATCH_MAX_FIELD_CHARS: "1000",
      BATCH_MAX_COLUMNS: "4",
    },
  },
  (ctx) => ({ t, key } = ctx),
);

type Where = { pointer?: string; parameter?: string; header?: string; line?: number };

async function expect422(req: Request, where: Where[], detail?: RegExp) {
  const res = await t.api.createBatch(req);
  expect(res.status).toBe(422);
  const problem = await problemOf(res);
  expect(problem).toMatchObject({ status: 422, code: "validation_error" });
  expect(problem.errors?.map(({ detail: _, ...rest }) => rest)).toEqual(where);
  if (detail) expect(problem.detail + " " + problem.errors!.map((e) => e.detail).join(" ")).toMatch(detail);
  // Counted like any authenticated write.
  expect(res.headers.get("ratelimit")).toMatch(/^"writes"/);
}

const item = { cadastral_reference: "2749704YJ0624N0001DI" };
const h = () => ({ "X-API-Key": key });

describe("POST /batches (JSON) → 422", () => {
  it("no items", () => expect422(postJson({ items: [] }, h()), [{ pointer: "/items" }]));
  it("items missing", () => expect422(postJson({ name: "x" }, h()), [{ pointer: "/items" }], /required/));
  it("10,001 items", () =>
    expect422(postJson({ items: Array(10_001).fill(item) }, h()), [{ pointer: "/items" }], /10000/));
  it("an external_id over 200 characters", () =>
    expect422(postJson({ items: [item, { ...item, external_id: "x".repeat(201) }] }, h()), [
      { pointer: "/items/1/external_id" },
    ]));
  it("a name over 200 characters", () =>
    expect422(postJson({ items: [item], name: "n".repeat(201) }, h()), [{ pointer: "/name" }]));
  it("an unknown member", () =>
    expect422(postJson({ items: [{ ...item, note: 1 }] }, h()), [{ pointer: "/items/0/note" }], /unknown/));
  it("a reference that is not a string", () =>
    expect422(postJson({ items: [{ cadastral_reference: 7 }] }, h()), [{ pointer: "/items/0/cadastral_reference" }]));
  it("not JSON", () => expect422(postJson("{items:", h()), [{ pointer: "" }], /JSON/));
  it("a query parameter with a JSON body", async () => {
    const req = new Request(`${BASE}/batches?name=x`, {
      method: "POST",
      headers: { ...h(), "Content-Type": "application/json" },
      body: JSON.stringify({ items: [item] }),
    });
    await expect422(req, [{ parameter: "name" }]);
  });
  it.each(["text/plain", "application/xml", ""])("Content-Type %j", (type) =>
    expect422(
      new Request(`${BASE}/batches`, { method: "POST", headers: { ...h(), "Content-Type": type }, body: "x" }),
      [{ pointer: "" }],
      /Content-Type/,
    ),
  );
});

describe("POST /batches (JSON) with 10,000 items", () => {
  it("is accepted", async () => {
    const res = await t.api.createBatch(postJson({ items: Array(10_000).fill(item) }, h()));
    expect(res.status).toBe(202);
    expect(((await res.json()) as { counts: { total: number; duplicate: number } }).counts).toMatchObject({
      total: 10_000,
      duplicate: 9_999,
    });
  });
  it("over the byte cap is refused", () =>
    expect422(
      postJson({ items: [{ ...item, external_id: "x".repeat(200) }], name: " ".repeat(1024 * 1024) }, h()),
      [{ pointer: "" }],
      /exceed/,
    ));
});

describe("POST /batches (CSV) → 422", () => {
  it("a header without a reference column names the header", () =>
    expect422(
      postCsv("reference;id\n2749704YJ0624N0001DI;1\n", h()),
      [{ line: 1 }],
      /cadastral_reference, referencia_catastral, refcat/,
    ));
  it("an empty file", () => expect422(postCsv("", h()), [{ line: 1 }], /empty/));
  it("a header and no rows", () => expect422(postCsv("cadastral_reference\r\n", h()), [{ line: 2 }], /no data rows/));
  it("more rows than BATCH_MAX_ITEMS", () =>
    expect422(
      postCsv(`refcat\n${Array(6).fill("2749704YJ0624N0001DI").join("\n")}\n`, h()),
      [{ line: 6 }],
      /At most 5 rows/,
    ));
  it("more bytes than BATCH_MAX_BYTES", () =>
    expect422(postCsv(`refcat,note\n${"\n".repeat(1024 * 1024)}x,1\n`, h()), [{ pointer: "" }], /1048576 bytes/));
  it("a row longer than BATCH_MAX_ROW_CHARS names its line and the limit", () =>
    expect422(
      postCsv(`refcat,a,b\nx,1,2\ny,${"a".repeat(1000)},${"b".repeat(1000)}${"c".repeat(1000)}\n`, h()),
      [{ line: 3 }],
      /longer than 2048 characters \(at most 2048 a row\)/,
    ));
  it("a header row longer than BATCH_MAX_ROW_CHARS, without a line end", () =>
    expect422(postCsv("r".repeat(100_000), h()), [{ line: 1 }], /at most 2048 a row/));
  it("one field of a megabyte, quoted: refused at the row's limit", () =>
    expect422(postCsv(`refcat,note\nx,"${"q".repeat(1024 * 1024 - 20)}"\n`, h()), [{ line: 2 }], /at most 2048 a row/));
  it("a field longer than BATCH_MAX_FIELD_CHARS", () =>
    expect422(postCsv(`refcat,note\nx,${"n".repeat(1001)}\n`, h()), [{ line: 2 }], /at most 1000 a field/));
  it("more columns than BATCH_MAX_COLUMNS in the header", () =>
    expect422(postCsv("refcat,a,b,c,d\nx,1,2,3,4\n", h()), [{ line: 1 }], /more than 4 columns \(at most 4 a row\)/));
  it("a line of a million empty fields is refused as it is read", () =>
    expect422(postCsv(`refcat,a\nx,1\ny${",".repeat(1_000_000)}\n`, h()), [{ line: 3 }], /more than 4 columns/));
  it("not UTF-8 (Windows-1252)", () =>
    expect422(
      postCsv(new Uint8Array([...Buffer.from("refcat,external_id\n2749704YJ0624N0001DI,Coru"), 0xf1, 0x61, 0x0a]), h()),
      [{ line: 1 }],
      /UTF-8/,
    ));
  it("an external_id over 200 characters names the data row", () =>
    expect422(postCsv(`refcat,external_id\nx,1\ny,${"z".repeat(201)}\n`, h()), [{ line: 2 }], /longer than 200/));
  it("a quote never closed", () =>
    expect422(
      postCsv('refcat,external_id\nx,"open\n', h()),
      [{ line: expect.any(Number) as unknown as number }],
      /CSV/,
    ));
  it("a quote opened at a field's start and closed rows later: the rows read into one are refused", () =>
    expect422(postCsv('refcat,external_id\n"x,1\ny,2\n"z",3\n', h()), [{ line: 1 }], /several lines/));
  it.each([
    ["refcat,external_id,refcat\nx,1,y\n", /two reference columns/],
    ["cadastral_reference;refcat\nx;y\n", /two reference columns/],
    ["refcat,external_id,External_ID\nx,1,2\n", /two external_id columns/],
  ])("a header naming a column twice: %j", (csv, detail) => expect422(postCsv(csv, h()), [{ line: 1 }], detail));
  it("a charset other than UTF-8", () =>
    expect422(
      postCsv("refcat\nx\n", { ...h(), "Content-Type": "text/csv; charset=latin1" }),
      [{ pointer: "" }],
      /Content-Type/,
    ));
  it("a name over 200 characters", () =>
    expect422(postCsv("refcat\nx\n", h(), `?name=${"n".repeat(201)}`), [{ parameter: "name" }]));
});

// One reader for CSV and XLSX (issue 43 §2): the header among the first 20 rows, the same accepted
// names and the same words when none is found, whatever the format.
describe("POST /batches (XLSX) → 422, in the words CSV gets", () => {
  const unnamed = (rows: number) => [
    ["reference", "loan"],
    ...Array.from({ length: rows - 1 }, (_, i) => [`2749704YJ0624N000${i % 10}DI`, `L-${i}`]),
  ];
  const csvOf = (rows: unknown[][]) => rows.map((r) => r.join(",")).join("\r\n");

  it.each([2, 30])("an unrecognised header in a workbook of %i rows lists the accepted names", async (rows) => {
    const res = await t.api.createBatch(postXlsx(await workbookOf(unnamed(rows)), h()));
    expect(res.status).toBe(422);
    const problem = await problemOf(res);
    expect(problem.detail).toMatch(/none of cadastral_reference, referencia_catastral, refcat \(any case\)/);
    expect(problem.detail).not.toMatch(/empty/);
    // The header row is quoted, not a data row.
    expect(problem.errors).toEqual([
      {
        line: 1,
        detail: 'header is ["reference","loan"]: none of cadastral_reference, referencia_catastral, refcat (any case)',
      },
    ]);
    // The same file as CSV gets the same answer.
    const csv = await problemOf(await t.api.createBatch(postCsv(csvOf(unnamed(rows)), h())));
    expect(csv).toMatchObject({ detail: problem.detail, errors: problem.errors });
  });

  it("a header on row 21 is not looked for", async () => {
    const rows = [...Array.from({ length: 20 }, (_, i) => [`title ${i}`]), ["refcat"], ["2749704YJ0624N0001DI"]];
    await expect422(postXlsx(await workbookOf(rows), h()), [{ line: 1 }], /No row among the first 20 names/);
    await expect422(postCsv(csvOf(rows), h()), [{ line: 1 }], /No row among the first 20 names/);
    // On row 20 it is.
    const res = await t.api.createBatch(postXlsx(await workbookOf(rows.slice(1)), h()));
    expect(res.status).toBe(202);
  });

  it("an empty sheet", () => workbookOf([]).then((bytes) => expect422(postXlsx(bytes, h()), [{ line: 1 }], /empty/)));
  it("a reference_column no row names", async () =>
    expect422(
      postXlsx(
        await workbookOf([
          ["a", "b"],
          ["x", "y"],
        ]),
        h(),
        "?reference_column=Ref",
      ),
      [{ parameter: "reference_column" }],
      /no column named "Ref" in the first 20 rows/,
    ));
  it("an external_id_column the header row lacks", async () =>
    expect422(
      postXlsx(
        await workbookOf([
          ["refcat", "b"],
          ["x", "y"],
        ]),
        h(),
        "?external_id_column=loan",
      ),
      [{ parameter: "external_id_column" }],
      /no column named "loan" in the header row \(line 1/,
    ));
  it("column names with a JSON body", () =>
    expect422(
      new Request(`${BASE}/batches?reference_column=r&external_id_column=e`, {
        method: "POST",
        headers: { ...h(), "Content-Type": "application/json" },
        body: JSON.stringify({ items: [item] }),
      }),
      [{ parameter: "reference_column" }, { parameter: "external_id_column" }],
    ));
  it("not a workbook", () =>
    expect422(postXlsx(new TextEncoder().encode("refcat\nx\n"), h()), [{ line: 1 }], /not a readable XLSX workbook/));
  it("more bytes than BATCH_MAX_BYTES", async () => {
    const bytes = new Uint8Array(1024 * 1024 + 1);
    bytes.set(await workbookOf([["refcat"], ["x"]]));
    const declared = { ...h(), "Content-Length": String(bytes.length) };
    await expect422(postXlsx(bytes, declared), [{ pointer: "" }], /1048576 bytes/);
  });
  it("more columns than BATCH_MAX_COLUMNS, as in a CSV", async () =>
    expect422(
      postXlsx(
        await workbookOf([
          ["refcat", "a", "b", "c", "d"],
          ["x", 1, 2, 3, 4],
        ]),
        h(),
      ),
      [{ line: 1 }],
      /more than 4 columns \(at most 4 a row\)/,
    ));
  it("a field longer than BATCH_MAX_FIELD_CHARS, as in a CSV", async () =>
    expect422(
      postXlsx(
        await workbookOf([
          ["refcat", "note"],
          ["x", "n".repeat(1001)],
        ]),
        h(),
      ),
      [{ line: 2 }],
      /at most 1000 a field/,
    ));
});
