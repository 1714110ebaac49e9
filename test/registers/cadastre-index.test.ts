// The cadastre index against a real database: each importer on its constructed samples (see
// lib/registers/catastro-*/format.md), the lookup that joins them, and what keeps imports safe: a
// file cut short or of another municipality leaves the previous copy; importing again replaces the
// copy whole; the copy's date is the publisher's, never the import's day.
import path from "node:path";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { countOf, createTestDatabase, type TestDatabase } from "@/test/support/database";
import { rowsOf } from "@/lib/db";
import { localFile } from "@/lib/registers";
import { cadastreIndex } from "@/lib/registers/cadastre-lookup";
import { catMunicipality, importCat } from "@/lib/registers/catastro-cat/import";
import { importInspire, inspireMunicipality } from "@/lib/registers/catastro-inspire/import";
import { toWgs84 } from "@/lib/registers/catastro-inspire/project";
import { fileWith } from "./support";

const CAT = path.join(process.cwd(), "lib/registers/catastro-cat/fixtures/28900-sample.CAT");
const GML = (name: string) => path.join(process.cwd(), "lib/registers/catastro-inspire/fixtures", name);
const INSPIRE = ["28900.cadastralparcel.gml", "28900.building.gml", "28900.buildingpart.gml", "28900.address.gml"];

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.drop());
const db = () => testDb.database.db;

describe("the cadastre index", () => {
  it("imports a municipality's INSPIRE files and answers a parcel with its parcel, building, parts and address", async () => {
    const result = await importInspire(
      db(),
      "28900",
      INSPIRE.map((name) => localFile(GML(name))),
    );
    expect(result).toMatchObject({
      municipality: "28900",
      superseded: false,
      counts: { parcel: 2, building: 2, building_part: 2, address: 2 },
      // The latest beginLifespanVersion of the features: the files carry no date of their own.
      asOf: "2015-11-24",
    });
    const facts = await cadastreIndex(db()).parcel("0847106VK4704F0001OE");
    expect(facts?.byKind.parcel?.[0]?.data).toMatchObject({ area_m2: 512, ...toWgs84("25830", 440123.45, 4474123.45) });
    expect(facts?.byKind.building?.[0]).toMatchObject({
      data: { built_from: 1968, built_to: 1968, dwellings: 2, gross_floor_area_m2: 1840 },
      copy: { source: "catastro-inspire", municipality: "28900", asOf: "2015-11-24" },
    });
    expect(facts?.byKind.building_part?.map((p) => p.data.floors_above_ground)).toEqual([5, 2]);
    // Street and postal code come from features defined after the address, in a file declared ISO-8859-1 but UTF-8.
    expect(facts?.byKind.address?.[0]?.data).toMatchObject({ number: "12", street: "CL ALCALÁ", postal_code: "28009" });
    expect(await cadastreIndex(db()).parcel("9999999VK4704F")).toBeNull();
  });

  it("imports a CAT file: units by their 20-character reference, a damaged record counted at its line", async () => {
    expect(await catMunicipality(localFile(CAT))).toBe("28900");
    const result = await importCat(db(), "28900", [localFile(CAT)]);
    expect(result).toMatchObject({
      counts: { cat_parcel: 2, construction_unit: 2, construction: 3, unit: 3 },
      skips: {
        bad_check_letters: { count: 1, first: [{ file: CAT, line: 12, column: null }] },
        record_16_not_read: { count: 1, first: [{ line: 13 }] },
      },
      asOf: "2026-03-15",
    });
    const facts = await cadastreIndex(db()).parcel("0847106VK4704F");
    expect(facts?.byKind.unit?.map((u) => u.unit)).toEqual([
      "0847106VK4704F0001OE",
      "0847106VK4704F0002PR",
      "0847106VK4704F0003AT",
    ]);
    expect(facts?.byKind.unit?.[0]).toMatchObject({
      data: { year_built: 1968, use_key: "V", built_area_m2: 92, floor: "00", participation: 0.325 },
      copy: { source: "catastro-cat", asOf: "2026-03-15" },
    });
    // Both sources answer the same parcel, each from its own copy.
    expect(facts?.byKind.building?.[0]?.copy.source).toBe("catastro-inspire");
  });

  it("refuses a CAT file cut short (its trailer missing or not matching) and keeps the previous copy", async () => {
    const lines = (await readFile(CAT, "latin1")).split("\r\n");
    const withoutTrailer = await fileWith("cut.CAT", Buffer.from(lines.slice(0, -2).join("\r\n"), "latin1"));
    await expect(importCat(db(), "28900", [localFile(withoutTrailer)])).rejects.toThrow(/no trailer record/);
    const missingUnit = lines.filter((_, i) => i !== 9);
    const short = await fileWith("short.CAT", Buffer.from(missingUnit.join("\r\n"), "latin1"));
    await expect(importCat(db(), "28900", [localFile(short)])).rejects.toThrow(
      /trailer counts 4 records of type 15, the file holds 3/,
    );
    const facts = await cadastreIndex(db()).parcel("0847106VK4704F");
    expect(facts?.byKind.unit).toHaveLength(3);
    const [copy] = (await cadastreIndex(db()).copies(400)).filter((c) => c.source === "catastro-cat");
    expect(copy).toMatchObject({ asOf: "2026-03-15", lastError: expect.stringMatching(/trailer counts/) });
    // Stale once the publisher's date is older than the setting's days (the INSPIRE copy dates from 2015).
    const stale = Object.fromEntries((await cadastreIndex(db()).copies(400)).map((c) => [c.source, c.stale]));
    expect(stale).toEqual({ "catastro-cat": false, "catastro-inspire": true });
  });

  it("refuses files of another municipality, and a municipality code that is not Catastro's", async () => {
    expect(inspireMunicipality("A.ES.SDGC.BU.42900.building.gml")).toBe("42900");
    const foreign = await fileWith("A.ES.SDGC.CP.42900.cadastralparcel.gml", await readFile(GML(INSPIRE[0]!)));
    await expect(importInspire(db(), "28900", [localFile(foreign)])).rejects.toThrow(/of municipality 42900/);
    await expect(importCat(db(), "42900", [localFile(CAT)])).rejects.toThrow(/a record of municipality 28900/);
    await expect(importInspire(db(), "Madrid", [localFile(GML(INSPIRE[0]!))])).rejects.toThrow(/five-digit code/);
  });

  it("refuses an empty collection as a copy, and gives the same index when the same files are imported again", async () => {
    await expect(importInspire(db(), "28900", [localFile(GML("empty.cadastralparcel.gml"))])).rejects.toThrow(
      /hold no catastro-inspire record/,
    );
    const count = () => countOf(db(), sql`select 1 from cadastre_records`);
    const before = await count();
    const again = await importInspire(
      db(),
      "28900",
      INSPIRE.map((name) => localFile(GML(name))),
    );
    expect(again.generation).toBeGreaterThan(1);
    expect(await count()).toBe(before);
    // A few rows are read whole whatever the indexes; the question is which index a lookup can use.
    const plan = await db().transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<{ "QUERY PLAN": string }>(
        await tx.execute(sql`explain select data from cadastre_records where parcel = '0847106VK4704F'`),
      );
    });
    expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/cadastre_records_parcel/);
  });
});
