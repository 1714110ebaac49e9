import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { checkLetters } from "@/lib/cadastral-reference";
import { schema } from "@/lib/db";
import { useTestApp, type TestApp } from "../support/app";
import { countOf } from "../support/database";
import { fakeSources } from "../support/fake-sources";
import { allItems, batchOf, postCsv, postJson, postXlsx, settled, workbookOf } from "../support/batches";

let t: TestApp;
let key: string;
const calls: string[] = [];
useTestApp({ sources: fakeSources(calls), workers: true }, (ctx) => ({ t, key } = ctx));

const ref = (n: number) => {
  const parcel = `${String(2749704 + n).padStart(7, "0")}YJ0624N`;
  return parcel + "0001" + checkLetters(parcel + "0001");
};

describe("POST /batches → 202", () => {
  it("accepts JSON items, registers each valid one once and completes", async () => {
    const items = [
      { cadastral_reference: ref(1), external_id: "loan-1" },
      { cadastral_reference: "bad" },
      { cadastral_reference: ref(2).toLowerCase() },
      { cadastral_reference: ref(1), external_id: "loan-1-again" },
    ];
    const res = await t.api.createBatch(postJson({ items, name: "Book A" }, { "X-API-Key": key }));
    expect(res.status).toBe(202);
    const batch = await batchOf(res);
    expect(res.headers.get("location")).toBe(`/api/v1/partner-api/batches/${batch.batch_id}`);
    expect(res.headers.get("ratelimit")).toMatch(/^"writes";r=99;/);
    expect(batch).toMatchObject({ name: "Book A", status: "queued", completed_at: null });
    expect(batch.counts).toMatchObject({ total: 4, invalid: 1, duplicate: 1, pending: 2 });

    const done = await settled(t, key, batch.batch_id);
    expect(done).toMatchObject({ status: "completed" });
    expect(done.counts).toMatchObject({ total: 4, invalid: 1, duplicate: 1, pending: 0, enriched: 2 });
    const listed = await allItems(t, key, batch.batch_id);
    expect(listed.map((i) => [i.line, i.status, i.external_id])).toEqual([
      [1, "enriched", "loan-1"],
      [2, "invalid", null],
      [3, "enriched", null],
      [4, "duplicate", "loan-1-again"],
    ]);
    expect(listed[1]!.error).toMatchObject({ code: "invalid_cadastral_reference" });
    expect(listed[3]!.property_id).toBe(listed[0]!.property_id);
    expect(calls.filter((c) => c === `cadastre:${ref(1)}`)).toHaveLength(1);
    const events = await countOf(
      t.app.db,
      sql`select 1 from ${schema.events} where ${schema.events.type} = 'batch.completed'`,
    );
    expect(events).toBe(1);
  });

  it("accepts a CSV body named by ?name=", async () => {
    const csv = `cadastral_reference,external_id\r\n${ref(10)},a\r\n${ref(11)},b\r\n`;
    const res = await t.api.createBatch(postCsv(csv, { "X-API-Key": key }, "?name=From%20CSV"));
    expect(res.status).toBe(202);
    const batch = await batchOf(res);
    expect(batch).toMatchObject({ name: "From CSV", counts: { total: 2, pending: 2 } });
    expect((await settled(t, key, batch.batch_id)).counts.enriched).toBe(2);
  });
});

// One reader for every way in (issue 43 §2): a workbook as the portal takes it, title rows and all.
describe("POST /batches (XLSX and CSV files) → 202", () => {
  const titled = (a: string, b: string) => [
    ["Cartera hipotecaria"],
    ["Exportado el 28/11/2026"],
    ["Referencia catastral", "external_id", "Saldo"],
    [a, "L-1", 120000],
    [b, "L-2", { formula: "1+1", result: 2 }],
  ];

  it("accepts an XLSX workbook whose header sits on row 3, below a title", async () => {
    const res = await t.api.createBatch(
      postXlsx(await workbookOf(titled(ref(20), ref(21))), { "X-API-Key": key }, "?name=Workbook"),
    );
    expect(res.status).toBe(202);
    const batch = await batchOf(res);
    expect(res.headers.get("location")).toBe(`/api/v1/partner-api/batches/${batch.batch_id}`);
    expect(batch).toMatchObject({ name: "Workbook", counts: { total: 2, pending: 2, invalid: 0 } });
    expect((await settled(t, key, batch.batch_id)).counts.enriched).toBe(2);
    const listed = await allItems(t, key, batch.batch_id);
    // Lines count the data rows, the header and the rows above it excluded.
    expect(listed.map((i) => [i.line, i.cadastral_reference, i.external_id])).toEqual([
      [1, ref(20), "L-1"],
      [2, ref(21), "L-2"],
    ]);
  });

  it("reads the same sheet saved as CSV (title lines, `;`) to the same items", async () => {
    const csv = `Cartera hipotecaria;;\r\nExportado el 28/11/2026;;\r\nReferencia catastral;external_id;Saldo\r\n${ref(22)};L-1;120000\r\n${ref(23)};L-2;2\r\n`;
    const res = await t.api.createBatch(postCsv(csv, { "X-API-Key": key }));
    expect(res.status).toBe(202);
    const batch = await batchOf(res);
    const listed = await allItems(t, key, batch.batch_id);
    expect(listed.map((i) => [i.line, i.cadastral_reference, i.external_id])).toEqual([
      [1, ref(22), "L-1"],
      [2, ref(23), "L-2"],
    ]);
  });

  it("reads columns named by ?reference_column= and ?external_id_column=, in CSV and XLSX alike", async () => {
    const rows = [["Informe"], ["Ref. catastral", "Préstamo"], [ref(24), "P-1"]];
    const query = `?reference_column=${encodeURIComponent("ref. CATASTRAL")}&external_id_column=prestamo`;
    const csv = rows.map((r) => r.join(",")).join("\n");
    for (const req of [
      postXlsx(await workbookOf(rows), { "X-API-Key": key }, query),
      postCsv(csv, { "X-API-Key": key }, query),
    ]) {
      const res = await t.api.createBatch(req);
      expect(res.status).toBe(202);
      const listed = await allItems(t, key, (await batchOf(res)).batch_id);
      expect(listed.map((i) => [i.line, i.cadastral_reference, i.external_id])).toEqual([[1, ref(24), "P-1"]]);
    }
  });
});
