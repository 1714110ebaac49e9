// What a batch does with its items: references already registered reuse their property, each new
// one is registered once, a cancel stops what has not started, and results carry every item.
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { RESULT_COLUMNS, RESULTS_MEDIA_TYPES } from "@/lib/batches";
import { checkLetters } from "@/lib/cadastral-reference";
import { rowsOf, schema } from "@/lib/db";
import { type BatchItem, Property } from "@/lib/domain";
import { BASE, get, newPartnerKey, post, useTestApp, type TestApp } from "../support/app";
import { countOf } from "../support/database";
import { fakeSources } from "../support/fake-sources";
import { allItems, batchOf, getBatch, postCsv, postJson, settled } from "../support/batches";
import { eventually } from "../support/wait";

let t: TestApp;
const calls: string[] = [];
useTestApp(
  { sources: fakeSources(calls), workers: true, env: { BATCH_WINDOW: "3", BATCH_MAX_ACTIVE: "100" } },
  (ctx) => ({ t } = ctx),
);

const unit = (n: number) => {
  const parcel = `${String(3100000 + n).padStart(7, "0")}YJ0624N`;
  return parcel + "0001" + checkLetters(parcel + "0001");
};

describe("a batch's items", () => {
  it("reuse a property the partner registered before (no register asked) and register each new reference once", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const created = await t.api.createProperty(
      post("/properties", { cadastral_reference: unit(1) }, { "X-API-Key": key }),
    );
    const before = (await created.json()) as Property;
    calls.length = 0;
    const refs = [unit(1), unit(2), unit(2), unit(3), unit(1)];
    const batch = await batchOf(
      await t.api.createBatch(postJson({ items: refs.map((r) => ({ cadastral_reference: r })) }, { "X-API-Key": key })),
    );
    const done = await settled(t, key, batch.batch_id);
    expect(done.counts).toMatchObject({ total: 5, enriched: 3, duplicate: 2, pending: 0 });
    const items = await allItems(t, key, batch.batch_id);
    expect(items[0]!.property_id).toBe(before.property_id);
    expect(items[4]).toMatchObject({ status: "duplicate", property_id: before.property_id });
    expect(items[2]).toMatchObject({ status: "duplicate", property_id: items[1]!.property_id });
    expect(calls.filter((c) => c.startsWith(`cadastre:${unit(1)}`))).toEqual([]);
    expect(calls.filter((c) => c.startsWith("cadastre:")).sort()).toEqual([
      `cadastre:${unit(2)}`,
      `cadastre:${unit(3)}`,
    ]);
    const properties = await countOf(
      t.app.db,
      sql`select 1 from ${schema.properties} where ${schema.properties.partnerId} = ${partner.id}`,
    );
    expect(properties).toBe(3);
    // Each new property is announced as a create's would be; the one registered before was announced already.
    const enriched = await countOf(
      t.app.db,
      sql`select 1 from ${schema.events} where ${schema.events.partnerId} = ${partner.id} and ${schema.events.type} = 'property.enriched'`,
    );
    expect(enriched).toBe(2);
  });

  it("filter by status and page in input order", async () => {
    const { key } = await newPartnerKey(t.app);
    const csv = `refcat\n${unit(10)}\nbad\n${unit(11)}\nworse\n`;
    const batch = await batchOf(await t.api.createBatch(postCsv(csv, { "X-API-Key": key })));
    await settled(t, key, batch.batch_id);
    const page = async (query: string) => {
      const res = await t.api.listBatchItems(get(`/batches/${batch.batch_id}/items${query}`, { "X-API-Key": key }));
      expect(res.status).toBe(200);
      return (await res.json()) as { data: BatchItem[]; has_more: boolean; next_starting_after: number | null };
    };
    const invalid = await page("?status=invalid");
    expect(invalid.data.map((i) => [i.line, i.cadastral_reference, i.error?.code])).toEqual([
      [2, "bad", "invalid_cadastral_reference"],
      [4, "worse", "invalid_cadastral_reference"],
    ]);
    const first = await page("?limit=3");
    expect(first).toMatchObject({ has_more: true, next_starting_after: 3 });
    expect((await page("?limit=3&starting_after=3")).data.map((i) => i.line)).toEqual([4]);
    const bad = await t.api.listBatchItems(get(`/batches/${batch.batch_id}/items?status=done`, { "X-API-Key": key }));
    expect(bad.status).toBe(422);
  });

  it("a cancel while running ends the items not yet started; those started finish, then batch.completed", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    // BATCH_WINDOW is 3 and no worker runs the steps yet beyond the first: most items wait.
    const refs = Array.from({ length: 40 }, (_, i) => unit(100 + i));
    const batch = await batchOf(
      await t.api.createBatch(postJson({ items: refs.map((r) => ({ cadastral_reference: r })) }, { "X-API-Key": key })),
    );
    await eventually("the batch starts", async () => (await getBatch(t, key, batch.batch_id)).status === "running");
    const res = await t.api.cancelBatch(
      new Request(`${BASE}/batches/${batch.batch_id}`, { method: "DELETE", headers: { "X-API-Key": key } }),
    );
    expect(res.status).toBe(200);
    const cancelled = await batchOf(res);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.counts.cancelled).toBeGreaterThan(0);
    const done = await settled(t, key, batch.batch_id);
    expect(done.status).toBe("cancelled");
    expect(done.counts.pending).toBe(0);
    expect(done.counts.enriched + done.counts.cancelled).toBe(40);
    const registered = await countOf(
      t.app.db,
      sql`select 1 from ${schema.properties} where ${schema.properties.partnerId} = ${partner.id}`,
    );
    expect(registered).toBe(done.counts.enriched);
    const completed = await countOf(
      t.app.db,
      sql`select 1 from ${schema.events} where ${schema.events.partnerId} = ${partner.id} and ${schema.events.type} = 'batch.completed'`,
    );
    expect(completed).toBe(1);
    // A second cancel answers the batch as it is.
    const again = await t.api.cancelBatch(
      new Request(`${BASE}/batches/${batch.batch_id}`, { method: "DELETE", headers: { "X-API-Key": key } }),
    );
    expect((await batchOf(again)).counts).toEqual(done.counts);
  });

  it("keep counts, step by step, that match the items counted afresh", async () => {
    const { key } = await newPartnerKey(t.app);
    // A window of 3 (BATCH_WINDOW): several steps, each moving the counts by what it changed.
    const refs = [unit(40), "bad", unit(41), unit(40), unit(42), unit(43), "worse", unit(44), unit(41), unit(45)];
    const batch = await batchOf(
      await t.api.createBatch(postJson({ items: refs.map((r) => ({ cadastral_reference: r })) }, { "X-API-Key": key })),
    );
    const done = await settled(t, key, batch.batch_id);
    const { batchItems } = schema;
    const counted = rowsOf<{ status: string; n: number }>(
      await t.app.db.execute(sql`select ${batchItems.status} as status, count(*)::int as n from ${batchItems}
        where ${batchItems.batchId} = ${batch.batch_id} group by ${batchItems.status}`),
    );
    const afresh = Object.fromEntries(Object.keys(done.counts).map((status) => [status, 0]));
    for (const { status, n } of counted) afresh[status] = n;
    afresh.total = refs.length;
    expect(done.counts).toEqual(afresh);
    expect(done.counts).toMatchObject({ total: 10, invalid: 2, duplicate: 2, pending: 0 });
  });

  it("lists batches newest first with pages", async () => {
    const { key } = await newPartnerKey(t.app);
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await batchOf(await t.api.createBatch(postCsv(`refcat\nbad${i}\n`, { "X-API-Key": key })))).batch_id);
    const list = async (query: string) =>
      (await (await t.api.listBatches(get(`/batches${query}`, { "X-API-Key": key }))).json()) as {
        data: { batch_id: string }[];
        next_starting_after: string | null;
      };
    const first = await list("?limit=2");
    expect(first.data.map((b) => b.batch_id)).toEqual([ids[2], ids[1]]);
    expect((await list(`?limit=2&starting_after=${first.next_starting_after}`)).data.map((b) => b.batch_id)).toEqual([
      ids[0],
    ]);
    const unknown = await t.api.listBatches(
      get(`/batches?starting_after=${crypto.randomUUID()}`, { "X-API-Key": key }),
    );
    expect(unknown.status).toBe(422);
  });
});

describe("GET /batches/{id}/results", () => {
  it("CSV: UTF-8 with BOM, the contract's columns, every item in input order, formulas escaped", async () => {
    const { key } = await newPartnerKey(t.app);
    const csv = `refcat,external_id\n${unit(20)},=HYPERLINK("http://x")\nbad,+1\n${unit(20)},@me\n`;
    const batch = await batchOf(await t.api.createBatch(postCsv(csv, { "X-API-Key": key })));
    await settled(t, key, batch.batch_id);
    const res = await t.api.getBatchResults(get(`/batches/${batch.batch_id}/results`, { "X-API-Key": key }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="batch-${batch.batch_id}.csv"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split("\r\n");
    expect(lines[0]).toBe(
      "line,external_id,cadastral_reference,status,property_id,address,municipality,province,ccaa,year_built,climate_zone,use,built_area_m2,energy_rating,energy_source,primary_energy_kwh_m2_year,emissions_kg_co2_m2_year,certificate_valid_until,ite_fetch_status,ite_next_due_on,latitude,longitude,error_code,postal_code,municipality_code,energy_certificate_id,energy_issued_on,energy_expired,emissions_rating,estimate_confidence,estimate_range_from,estimate_range_to,ite_overdue,energy_as_of,attribution,enriched_at",
    );
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe("");
    expect(lines[1]).toMatch(
      new RegExp(
        `^1,"'=HYPERLINK\\(""http://x""\\)",${unit(20)},enriched,[0-9a-f-]{36},CL SAN RESTITUTO 72 Pl:01 Pt:A 28039 MADRID \\(MADRID\\),Madrid,Madrid,Comunidad de Madrid,1975,D3,residential,91,E,registry,201.5,42.1,2030-01-01,unsupported,\\d{4}-\\d\\d-\\d\\d,,,,,28079,C-1,2020-01-01,false,E,,,,true,,,\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`,
      ),
    );
    expect(lines[2]).toBe("2,'+1,bad,invalid,,,,,,,,,,,,,,,,,,,invalid_cadastral_reference,,,,,,,,,,,,,");
    expect(lines[3]).toMatch(/^3,'@me,.*,duplicate,/);
  });

  it("XLSX by Accept: the same columns as typed cells, every text as given (no formula, no quote)", async () => {
    const { key } = await newPartnerKey(t.app);
    const csv = `refcat,external_id\n${unit(40)},+34 600 000 000\nbad,=1+1\n`;
    const batch = await batchOf(await t.api.createBatch(postCsv(csv, { "X-API-Key": key })));
    await settled(t, key, batch.batch_id);
    const res = await t.api.getBatchResults(
      get(`/batches/${batch.batch_id}/results`, { "X-API-Key": key, Accept: RESULTS_MEDIA_TYPES.xlsx }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(RESULTS_MEDIA_TYPES.xlsx);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="batch-${batch.batch_id}.xlsx"`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    const [header, enriched, invalid] = (sheet.getSheetValues() as unknown[][]).slice(1);
    const cell = (row: unknown[] | undefined, column: string) => row![header!.indexOf(column)];
    expect(header!.slice(1)).toEqual(RESULT_COLUMNS);
    expect(cell(enriched, "external_id")).toBe("+34 600 000 000");
    expect(cell(invalid, "external_id")).toBe("=1+1");
    // Stored as text, not as a formula the reader would run.
    expect(sheet.getRow(3).getCell(header!.indexOf("external_id")).type).toBe(ExcelJS.ValueType.String);
    expect(cell(enriched, "line")).toBe(1);
    expect(cell(enriched, "built_area_m2")).toBe(91);
    expect(cell(enriched, "primary_energy_kwh_m2_year")).toBe(201.5);
    expect(cell(enriched, "energy_expired")).toBe(false);
    expect(typeof cell(enriched, "ite_overdue")).toBe("boolean");
    expect(cell(enriched, "energy_issued_on")).toEqual(new Date("2020-01-01T00:00:00Z"));
    expect(cell(enriched, "certificate_valid_until")).toEqual(new Date("2030-01-01T00:00:00Z"));
    expect(cell(enriched, "enriched_at")).toBeInstanceOf(Date);
    expect(cell(enriched, "energy_certificate_id")).toBe("C-1");
    expect(cell(invalid, "status")).toBe("invalid");
    expect(cell(invalid, "error_code")).toBe("invalid_cadastral_reference");
    expect(cell(invalid, "address")).toBeUndefined();
  });

  it("NDJSON: {item, property} a line, while the batch runs too", async () => {
    const { key } = await newPartnerKey(t.app);
    const batch = await batchOf(await t.api.createBatch(postCsv(`refcat\n${unit(30)}\nbad\n`, { "X-API-Key": key })));
    const early = await t.api.getBatchResults(
      get(`/batches/${batch.batch_id}/results`, { "X-API-Key": key, Accept: "application/x-ndjson" }),
    );
    expect(early.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect((await early.text()).trim().split("\n")).toHaveLength(2);
    await settled(t, key, batch.batch_id);
    const res = await t.api.getBatchResults(
      get(`/batches/${batch.batch_id}/results`, { "X-API-Key": key, Accept: "application/x-ndjson" }),
    );
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0].item).toMatchObject({ line: 1, status: "enriched" });
    expect(Property.parse(lines[0].property).cadastral_reference).toBe(unit(30));
    expect(lines[1]).toMatchObject({ item: { line: 2, status: "invalid" }, property: null });
  });
});
