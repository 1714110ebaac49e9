// Each importer on its fixture (dirty references, several per field, a building's certificate,
// rows without reference or rating), then what makes imports safe: a foreign file or a broken
// workbook leaves the previous copy, a malformed line is left out and counted; a new import
// replaces the old one whole; the same file twice gives the same index.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { createTestDatabase, countOf, type TestDatabase } from "@/test/support/database";
import { DATASETS, importDataset, listDatasets, localFile, registerIndex, RegisterFileError } from "@/lib/registers";
import { dataset, fileWith, fixture, fixtureBytes, importFixture } from "./support";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.drop());
const db = () => testDb.database.db;

/**
 * Per fixture: its parcel; the letters of unit 0001's newest certificate, units 0002/0003's shared
 * one, and the building's; and where the first row sits (line, sheet row or the record's tag line).
 */
const EXPECTED = {
  "cat-icaen": { parcel: "0625102DF3802F", unit1: "E", unit23: "D", building: "E", inspections: 1, firstRow: 2 },
  "val-gva": { parcel: "1416301YJ2711N", unit1: "E", unit23: "D", building: "E", inspections: 0, firstRow: 2 },
  "cyl-jcyl": { parcel: "4926201VM4742N", unit1: "E", unit23: "D", building: "E", inspections: 0, firstRow: 2 },
  "ara-gaodcore": { parcel: "7541901XM8174S", unit1: "E", unit23: "D", building: "E", inspections: 0, firstRow: 2 },
  "can-gobcan": { parcel: "1234567CS3413S", unit1: "C", unit23: "B", building: "C", inspections: 0, firstRow: 2 },
  "rio-larioja": { parcel: "9872023VH5797S", unit1: "E", unit23: "D", building: "E", inspections: 0, firstRow: 2 },
  "and-junta": { parcel: "2130105UF7623S", unit1: "E", unit23: "D", building: "E", inspections: 0, firstRow: 4 },
  "clm-jccm": { parcel: "6315807VK1461N", unit1: "E", unit23: "D", building: "E", inspections: 0, firstRow: 2 },
  "ast-principado": { parcel: "3342101VJ1634S", unit1: "E", unit23: "D", building: "E", inspections: 0, firstRow: 3 },
  "ctb-dgicc": { parcel: "9182706VP2398S", unit1: "E", unit23: "D", building: "E", inspections: 0, firstRow: 2 },
  "gal-xunta": { parcel: "4815903NH4941N", unit1: "E", unit23: "D", building: "E", inspections: 0, firstRow: 2 },
  // No date is read: the newer certificate is the later line (the fixture's README).
  "mad-cee": { parcel: "3346105VK4734N", unit1: "E", unit23: "D", building: "E", inspections: 0, firstRow: 3 },
} as const;

/** Which dates each dataset gives: an issue date, only a registration date, or the end of validity. */
const DATES: Record<keyof typeof EXPECTED, readonly string[]> = {
  "cat-icaen": ["registeredOn"],
  "val-gva": ["validUntil"],
  "cyl-jcyl": ["registeredOn"],
  "ara-gaodcore": ["issuedOn", "validUntil"],
  "can-gobcan": ["registeredOn"],
  "rio-larioja": ["validUntil"],
  "and-junta": ["issuedOn"],
  "clm-jccm": ["issuedOn"],
  "ast-principado": ["registeredOn"],
  "ctb-dgicc": ["issuedOn"],
  "gal-xunta": ["validUntil"],
  "mad-cee": [],
};

describe.each(Object.entries(EXPECTED))("%s importer on its fixture", (id, expected) => {
  const index = () => registerIndex(db());
  const unit = (n: string) => `${expected.parcel}${n}`;

  it("indexes every usable row, one record per reference, and counts the rest as skipped", async () => {
    const result = await importFixture(db(), id);
    // 6 rows: a unit, the same unit older and written dirty, two units in one field, the parcel; no reference; no rating.
    expect(result).toMatchObject({
      dataset: id,
      rows: 5 + expected.inspections,
      skipped: 2,
      asOf: "2026-11-01",
      superseded: false,
    });
  });

  it("finds a unit's newest certificate, also where the registry wrote the reference dirty", async () => {
    const hit = await index().certificate({ parcel: expected.parcel, unit: unit("0001") });
    expect(hit).toMatchObject({
      dataset: id,
      asOf: "2026-11-01",
      data: { rating: expected.unit1, scope: "unit", registry: dataset(id).registry },
    });
    expect(hit!.sourceRow).toBe(expected.firstRow);
  });

  it("finds each unit of a field naming several", async () => {
    for (const n of ["0002", "0003"]) {
      expect((await index().certificate({ parcel: expected.parcel, unit: unit(n) }))?.data).toMatchObject({
        rating: expected.unit23,
        scope: "unit",
      });
    }
  });

  it("falls back to the building's certificate for another unit and for the parcel", async () => {
    for (const u of [unit("0009"), null]) {
      expect((await index().certificate({ parcel: expected.parcel, unit: u }))?.data).toMatchObject({
        rating: expected.building,
        scope: "building",
      });
    }
  });

  it("reads the figures and dates of the certificate, each date as what the dataset says it is", async () => {
    const { data } = (await index().certificate({ parcel: expected.parcel, unit: unit("0001") }))!;
    expect(data.primaryEnergyKwhM2Year).toEqual(expect.any(Number));
    expect(data.emissionsKgCo2M2Year).toEqual(expect.any(Number));
    expect(data.emissionsRating).toBe(expected.unit1);
    const given = Object.entries({
      issuedOn: data.issuedOn,
      registeredOn: data.registeredOn,
      validUntil: data.validUntil,
    })
      .filter(([, date]) => date)
      .map(([field]) => field);
    expect(given).toEqual(DATES[id as keyof typeof EXPECTED]);
    for (const field of given) expect(data[field as keyof typeof data]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe("Catalonia's IITE code", () => {
  it("is an inspection of the building, found by parcel", async () => {
    await importFixture(db(), "cat-icaen");
    expect(await registerIndex(db()).inspection({ parcel: "0625102DF3802F" })).toMatchObject({
      dataset: "cat-icaen",
      data: { status: "found", reference: "IITE-2016-000123", registry: "ICAEN (j6ii-t3w2)" },
    });
    expect(await registerIndex(db()).inspection({ parcel: "1416301YJ2711N" })).toBeNull();
  });
});

describe("a file that cannot be read", () => {
  it("names file and line, keeps the previous copy and records the error", async () => {
    await importFixture(db(), "val-gva", "2026-10-01");
    const rows = (await fixtureBytes("val-gva")).toString("utf8").split("\n").slice(1).join("\n");
    const renamed = await fileWith("val-gva-renamed.csv", `REGISTRO;REF_CATASTRAL;CONSUMO_EP_LETRA\n${rows}`);
    const importing = importDataset(db(), dataset("val-gva"), [localFile(renamed)], { asOf: "2026-11-01" });
    const error = await importing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegisterFileError);
    expect(error).toMatchObject({ file: renamed, line: 1 });
    const lacks = 'the header lacks the column "REFERENCIA_CATASTRAL" that val-gva needs';
    expect((error as Error).message).toBe(`${renamed}: line 1: ${lacks}`);
    const status = (await listDatasets(db(), 400)).find((d) => d.id === "val-gva")!;
    expect(status).toMatchObject({ rows: 5, asOf: "2026-10-01", lastError: (error as Error).message });
    expect(
      await registerIndex(db()).certificate({ parcel: "1416301YJ2711N", unit: "1416301YJ2711N0001" }),
    ).toMatchObject({ asOf: "2026-10-01" });
    // Its partial rows are gone: only the live generation is left.
    expect(await countOf(db(), sql`select 1 from register_records where dataset = 'val-gva'`)).toBe(5);
  });

  it("a line whose fields do not match the header, or an unclosed quote, is left out, counted by line", async () => {
    const bad = Buffer.from('CYL-0009;Valladolid\nCYL-0010;"CALLE SIN CIERRE;47001\n');
    const short = await fileWith("short.csv", Buffer.concat([await fixtureBytes("cyl-jcyl"), bad]));
    const result = await importDataset(db(), dataset("cyl-jcyl"), [localFile(short)], { asOf: "2026-11-01" });
    expect(result).toMatchObject({ rows: 5, skipped: 4 });
    const at = (line: number) => ({ file: short, line, column: null });
    expect(result.skips.line).toEqual({ count: 2, first: [at(8), at(9)] });
  });

  it("without the dataset's columns is refused at line 1, naming the missing columns", async () => {
    const foreign = await fileWith("foreign.csv", await fixtureBytes("val-gva"));
    await expect(
      importDataset(db(), dataset("cyl-jcyl"), [localFile(foreign)], { asOf: "2026-11-01" }),
    ).rejects.toThrow(
      /foreign\.csv: line 1: the header lacks the columns "Ref\. Catastral", "Calificación E\.Primaria"/,
    );
  });

  it("with the columns but nothing usable is refused", async () => {
    const useless = await fileWith("useless.csv", "REF_CATASTRAL,CALIF_CONSUMO_NORENOV\nnone,X\n");
    await expect(
      importDataset(db(), dataset("rio-larioja"), [localFile(useless)], { asOf: "2026-11-01" }),
    ).rejects.toThrow(/none of the 1 rows has a usable reference and rating/);
  });
});

describe("XLSX and XML files", () => {
  it("reads a CSV dataset re-saved as XLSX as it reads the CSV", async () => {
    const csv = await importFixture(db(), "cyl-jcyl");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Hoja1");
    for (const line of (await fixtureBytes("cyl-jcyl")).toString("utf8").trim().split("\n"))
      sheet.addRow(line.split(";"));
    const file = await fileWith("cyl.xlsx", Buffer.from(await workbook.xlsx.writeBuffer()));
    const xlsx = await importDataset(db(), dataset("cyl-jcyl"), [localFile(file)], { asOf: "2026-11-01" });
    // The same rows, records and skips at the same lines; only the file's name differs.
    const named = (r: typeof csv) => JSON.stringify(r === csv ? fixture("cyl-jcyl") : file);
    const same = (r: typeof csv) => JSON.parse(JSON.stringify({ ...r, generation: 0 }).replaceAll(named(r), '"f"'));
    expect(same(xlsx)).toEqual(same(csv));
  });

  it("refuses a damaged workbook, naming the file", async () => {
    const whole = await fixtureBytes("ctb-dgicc");
    const cut = await fileWith("cut.xlsx", whole.subarray(0, Math.floor(whole.length / 2)));
    const error = await importDataset(db(), dataset("ctb-dgicc"), [localFile(cut)], { asOf: "2026-11-01" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RegisterFileError);
    expect((error as Error).message).toMatch(/cut\.xlsx: line \d+: not a readable XLSX workbook/);
  });

  it("refuses a ZIP archive of other files, saying to extract it (Castilla-La Mancha publishes one)", async () => {
    const zip = new JSZip();
    zip.file("TOLEDO.txt", await fixtureBytes("clm-jccm"));
    const archive = await fileWith("clm.zip", await zip.generateAsync({ type: "nodebuffer" }));
    await expect(
      importDataset(db(), dataset("clm-jccm"), [localFile(archive)], { asOf: "2026-11-01" }),
    ).rejects.toThrow(/clm\.zip: line 1: a ZIP archive holding no workbook: extract it/);
  });

  it("refuses a workbook whose top rows do not name the dataset's columns", async () => {
    const other = await fileWith("other.xlsx", await fixtureBytes("ctb-dgicc"));
    // Cantabria's header shares "REFERENCIA CATASTRAL" with Asturias's: its row is the closest to a header.
    await expect(
      importDataset(db(), dataset("ast-principado"), [localFile(other)], { asOf: "2026-11-01" }),
    ).rejects.toThrow(
      /other\.xlsx: line 1: the header lacks the column "CALIF CONSUMO ENERGIA PRIMARIA" that ast-principado needs/,
    );
  });

  it("names line and column of malformed XML and keeps the previous copy", async () => {
    await importFixture(db(), "and-junta", "2026-10-01");
    const text = (await fixtureBytes("and-junta")).toString("latin1");
    const broken = await fileWith(
      "broken.xml",
      Buffer.from(text.replace("<Municipio>Dos Hermanas</Municipio>", "<Municipio>Dos Hermanas</Municipo>"), "latin1"),
    );
    const error = await importDataset(db(), dataset("and-junta"), [localFile(broken)], { asOf: "2026-11-01" }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ file: broken, line: 6, column: expect.any(Number) });
    expect((error as Error).message).toMatch(/broken\.xml: line 6, column \d+: unexpected close tag/);
    expect(
      await registerIndex(db()).certificate({ parcel: "2130105UF7623S", unit: "2130105UF7623S0001" }),
    ).toMatchObject({ asOf: "2026-10-01" });
  });

  it("refuses XML without the dataset's records, and a CSV where XML is expected", async () => {
    const empty = await fileWith("empty.xml", '<?xml version="1.0"?><Certificados><Otro/></Certificados>');
    await expect(importDataset(db(), dataset("and-junta"), [localFile(empty)], { asOf: "2026-11-01" })).rejects.toThrow(
      /empty\.xml: line 1: no <DatosEnergeticosDelEdificio> element/,
    );
    const csv = await fileWith("and.csv", await fixtureBytes("cyl-jcyl"));
    await expect(importDataset(db(), dataset("and-junta"), [localFile(csv)], { asOf: "2026-11-01" })).rejects.toThrow(
      /and\.csv: line 1: and-junta files are XML/,
    );
  });

  it("reads a file declared UTF-8 as it reads the ISO-8859-1 fixture", async () => {
    await importFixture(db(), "and-junta");
    const utf8 = await fileWith(
      "utf8.xml",
      Buffer.from((await fixtureBytes("and-junta")).toString("latin1").replace("ISO-8859-1", "UTF-8"), "utf8"),
    );
    expect(await importDataset(db(), dataset("and-junta"), [localFile(utf8)], { asOf: "2026-11-01" })).toMatchObject({
      rows: 5,
      skipped: 2,
    });
  });
});

describe("Madrid city's inspections, filed by address", () => {
  it("are found by the Catastro address's key, the newest first; rows without a number or a result are skipped", async () => {
    expect(await importFixture(db(), "mad-ite")).toMatchObject({ rows: 3, skipped: 2 });
    const hit = await registerIndex(db()).inspection({
      parcel: "9398516VK3799G",
      addressKey: "28079|CALLE|SAN RESTITUTO|72",
    });
    expect(hit).toMatchObject({
      dataset: "mad-ite",
      sourceRow: 3,
      data: {
        status: "found",
        result: "unfavourable",
        inspectedOn: "2023-06-20",
        registry: "Ayuntamiento de Madrid ITE",
      },
    });
    expect(
      (await registerIndex(db()).inspection({ parcel: "9398516VK3799G", addressKey: "28079|AVENIDA|ALBUFERA|12" }))
        ?.data,
    ).toMatchObject({ result: "favourable" });
    expect(
      await registerIndex(db()).inspection({ parcel: "9398516VK3799G", addressKey: "28079|CALLE|SAN RESTITUTO|74" }),
    ).toBeNull();
    expect(await registerIndex(db()).inspection({ parcel: "9398516VK3799G" })).toBeNull();
  });

  it("come after the building's own inspection filed under its parcel", async () => {
    await importFixture(db(), "cat-icaen");
    await importFixture(db(), "mad-ite");
    expect(
      await registerIndex(db()).inspection({ parcel: "0625102DF3802F", addressKey: "28079|CALLE|SAN RESTITUTO|72" }),
    ).toMatchObject({ dataset: "cat-icaen" });
  });
});

describe("Galicia's unquoted lines", () => {
  it("name fields from both ends, whatever commas the address and the final note hold", async () => {
    await importFixture(db(), "gal-xunta");
    const hit = await registerIndex(db()).certificate({ parcel: "4815903NH4941N", unit: "4815903NH4941N0001" });
    expect(hit?.data).toMatchObject({
      rating: "E",
      primaryEnergyKwhM2Year: 198.6,
      emissionsKgCo2M2Year: 42,
      validUntil: "2029-05-10",
      certificateId: "GAL-0001",
    });
  });

  it("a line too short to hold the fields is left out and counted by its line", async () => {
    const bad = Buffer.from("SOL-0009,GAL-0009,EXISTENTE,RUA\r\n");
    const short = await fileWith("gal-short.csv", Buffer.concat([await fixtureBytes("gal-xunta"), bad]));
    const result = await importDataset(db(), dataset("gal-xunta"), [localFile(short)], { asOf: "2026-11-01" });
    expect(result).toMatchObject({ rows: 5, skipped: 3 });
    expect(result.skips.line).toEqual({ count: 1, first: [{ file: short, line: 8, column: null }] });
  });
});

describe("replacing a dataset", () => {
  it("swaps the whole copy: the old records are gone, the new ones found", async () => {
    await importFixture(db(), "rio-larioja", "2026-10-01");
    const next = await fileWith(
      "rio-next.csv",
      "REF_CATASTRAL,CALIF_CONSUMO_NORENOV,FECHA_VALIDEZ\n9872023VH5797S0005AA,A,2035-01-01\n",
    );
    const result = await importDataset(db(), dataset("rio-larioja"), [localFile(next)], { asOf: "2026-11-15" });
    expect(result).toMatchObject({ rows: 1, skipped: 0 });
    expect(await registerIndex(db()).certificate({ parcel: "9872023VH5797S", unit: "9872023VH5797S0001" })).toBeNull();
    expect(
      await registerIndex(db()).certificate({ parcel: "9872023VH5797S", unit: "9872023VH5797S0005" }),
    ).toMatchObject({ asOf: "2026-11-15", data: { rating: "A" } });
    expect(await countOf(db(), sql`select 1 from register_records where dataset = 'rio-larioja'`)).toBe(1);
  });

  it("is idempotent: the same file twice gives the same index", async () => {
    const first = await importFixture(db(), "ara-gaodcore");
    const second = await importFixture(db(), "ara-gaodcore");
    expect(second.generation).toBeGreaterThan(first.generation);
    expect({ ...second, generation: 0 }).toEqual({ ...first, generation: 0 });
    expect(await countOf(db(), sql`select 1 from register_records where dataset = 'ara-gaodcore'`)).toBe(first.rows);
  });

  it("lets the import that started later win when it finishes first", async () => {
    // The earlier import's file stops after its header until the later import has finished.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    async function* slow() {
      yield Buffer.from("REFERENCIA_CATASTRAL,CONSUMO_EP_LETRA\n");
      await held;
      yield Buffer.from("1416301YJ2711N0007AA,G\n");
    }
    let opened = () => {};
    const open = new Promise<void>((r) => (opened = r));
    // A file is opened after its import claimed its generation: the later import claims the next one.
    const earlier = importDataset(
      db(),
      dataset("val-gva"),
      [{ name: "earlier.csv", open: async () => (opened(), { stream: Readable.from(slow()), size: null }) }],
      { asOf: "2026-11-10" },
    );
    await open;
    const later = await fileWith("later.csv", "REFERENCIA_CATASTRAL,CONSUMO_EP_LETRA\n1416301YJ2711N0008AA,A\n");
    expect(await importDataset(db(), dataset("val-gva"), [localFile(later)], { asOf: "2026-11-11" })).toMatchObject({
      superseded: false,
    });
    release();
    expect(await earlier).toMatchObject({ superseded: true });
    expect(
      await registerIndex(db()).certificate({ parcel: "1416301YJ2711N", unit: "1416301YJ2711N0008" }),
    ).toMatchObject({ asOf: "2026-11-11" });
    expect(await registerIndex(db()).certificate({ parcel: "1416301YJ2711N", unit: "1416301YJ2711N0007" })).toBeNull();
    expect(await countOf(db(), sql`select 1 from register_records where dataset = 'val-gva'`)).toBe(1);
  });

  it("reads several files as one dataset (Valencia's per-year files)", async () => {
    const other = await fileWith(
      "val-2021.csv",
      "REFERENCIA_CATASTRAL,CONSUMO_EP_LETRA,VALIDO_HASTA\n1416301YJ2711N0005QQ,B,01/01/2031\n",
    );
    const result = await importDataset(db(), dataset("val-gva"), [localFile(fixture("val-gva")), localFile(other)], {
      asOf: "2026-11-01",
    });
    expect(result.rows).toBe(6);
    expect((await listDatasets(db(), 400)).find((d) => d.id === "val-gva")).toMatchObject({
      rows: 6,
      lastError: null,
      source: expect.stringContaining("val-2021.csv"),
    });
  });
});

it("reads Madrid's no-value sentinel (99999999,99) as no figure, not as a figure", async () => {
  await importFixture(db(), "mad-cee");
  const building = await registerIndex(db()).certificate({ parcel: "3346105VK4734N", unit: null });
  expect(building?.data).toMatchObject({ rating: "E", primaryEnergyKwhM2Year: 170, emissionsKgCo2M2Year: null });
});

it("every dataset has a fixture covered here", () => {
  expect(DATASETS.map((d) => d.id).sort()).toEqual([...Object.keys(EXPECTED), "mad-ite"].sort());
});
