// Imports that survive real files: a value that cannot be read is left out and counted by reason
// with file, line and column; a row without a usable reference likewise; nothing a row holds ever
// reaches an error, a stored message or a skip's position; the encoding is read from the bytes;
// the dry run tells what a file holds without writing; column overrides map renamed exports.
// Files here are CONSTRUCTED variations of the fixtures (lib/registers/datasets/fixtures/README.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "@/test/support/database";
import { importDataset, inspectFile, listDatasets, localFile, registerIndex, RegisterFileError } from "@/lib/registers";
import { MAX_XML_RECORD_VALUES, MAX_XML_TEXT_CHARS } from "@/lib/registers/read-xml";
import { checkLetters } from "@/lib/cadastral-reference";
import { dataset, fileWith, fixture } from "./support";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.drop());
const db = () => testDb.database.db;

/** Aragón's view as a CSV: its 16 columns, rows given as the columns that differ from a good one. */
const ARAGON_HEADER =
  "numcert,refcatastral,fec_emision,fec_expira,emision_co,clasificacion_emisiones,consumo_ener," +
  "clasificacion_consumo,tipoedi,estadoedi,anio,superficie,munic,prov,direccion,coordenadas";
function aragonRow(values: Partial<Record<string, string>>): string {
  const good: Record<string, string> = {
    numcert: "ARA-1",
    refcatastral: "7541901XM8174S0001SQ",
    fec_emision: "2019-05-10 0:00",
    fec_expira: "2029-05-10 0:00",
    emision_co: '"44,1 kgCO2/m2 año"',
    clasificacion_emisiones: "E",
    consumo_ener: '"201,4 kWh/m2 año"',
    clasificacion_consumo: "E",
    tipoedi: "Bloque: Vivienda individual",
    estadoedi: "Existente",
    anio: "1970",
    superficie: "80",
    munic: "ZARAGOZA",
    prov: "ZARAGOZA",
    direccion: "CALLE FICTICIA 4",
    coordenadas: '"675123,45 , 4612345,67"',
  };
  return ARAGON_HEADER.split(",")
    .map((column) => values[column] ?? good[column])
    .join(",");
}
const aragonFile = (name: string, rows: Partial<Record<string, string>>[]) =>
  fileWith(name, [ARAGON_HEADER, ...rows.map(aragonRow)].join("\n") + "\n");

describe("values that cannot be read", () => {
  it("are left out of their row and counted by reason, with file, line and column of the first few", async () => {
    const file = await aragonFile("aragon-values.csv", [
      {},
      { numcert: "ARA-2", refcatastral: "7541901XM8174S0002DW", fec_emision: "02/28/2032" },
      {
        numcert: "ARA-3",
        refcatastral: "7541901XM8174S0003FE",
        consumo_ener: '"n.d. kWh/m2 año"',
        fec_expira: "31/02/2030",
      },
      { numcert: "ARA-4", refcatastral: "7541901XM8174S0004GR", clasificacion_emisiones: "H" },
      { numcert: "ARA-5", refcatastral: "PENDIENTE" },
      { numcert: "ARA-6", refcatastral: "7541901XM8174S0006JY", clasificacion_consumo: "X" },
      { numcert: "ARA-7", refcatastral: "7541901XM8174S0007KU", clasificacion_consumo: "-" },
    ]);
    const result = await importDataset(db(), dataset("ara-gaodcore"), [localFile(file)], { asOf: "2026-11-01" });
    expect(result).toMatchObject({ rows: 4, skipped: 3 });
    const at = (line: number, column: string) => ({ file, line, column });
    expect(result.skips).toEqual({
      date: { count: 2, first: [at(3, "fec_emision"), at(4, "fec_expira")] },
      number: { count: 1, first: [at(4, "consumo_ener")] },
      letter: { count: 1, first: [at(5, "clasificacion_emisiones")] },
      reference: { count: 1, first: [at(6, "refcatastral")] },
      rating: { count: 2, first: [at(7, "clasificacion_consumo"), at(8, "clasificacion_consumo")] },
    });
    // The rows themselves are kept, without the values that could not be read.
    const unit = (n: string) =>
      registerIndex(db()).certificate({ parcel: "7541901XM8174S", unit: `7541901XM8174S${n}` });
    expect((await unit("0002"))?.data).toMatchObject({ rating: "E", issuedOn: null, validUntil: "2029-05-10" });
    expect((await unit("0003"))?.data).toMatchObject({
      primaryEnergyKwhM2Year: null,
      emissionsKgCo2M2Year: 44.1,
      validUntil: null,
    });
    expect((await unit("0004"))?.data).toMatchObject({ rating: "E", emissionsRating: null });
    expect((await listDatasets(db(), 400)).find((d) => d.id === "ara-gaodcore")).toMatchObject({
      rows: 4,
      skipped: 3,
      skips: result.skips,
    });
  });

  it("keep five positions per reason and count them all", async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ numcert: `ARA-${i}`, fec_emision: `${i + 10}/13/2020` }));
    const file = await aragonFile("aragon-dates.csv", rows);
    const { skips } = await importDataset(db(), dataset("ara-gaodcore"), [localFile(file)], { asOf: "2026-11-01" });
    expect(skips.date!.count).toBe(8);
    expect(skips.date!.first.map((p) => p.line)).toEqual([2, 3, 4, 5, 6]);
  });
});

describe("no value of a row in any error, message or position", () => {
  const SECRET = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";

  it("when values, references and whole lines cannot be read", async () => {
    const file = await aragonFile("aragon-secret.csv", [
      {},
      { numcert: "ARA-2", refcatastral: "7541901XM8174S0002DW", fec_emision: SECRET, consumo_ener: SECRET },
      {
        numcert: "ARA-3",
        refcatastral: "7541901XM8174S0003FE",
        clasificacion_emisiones: SECRET,
        fec_expira: `"${SECRET}"`,
      },
      { numcert: SECRET, refcatastral: SECRET },
      { numcert: `"${SECRET}`, refcatastral: `${SECRET}"x` },
      { numcert: `ARA-${SECRET}\u0000`, refcatastral: "7541901XM8174S0005HU" },
    ]);
    const result = await importDataset(db(), dataset("ara-gaodcore"), [localFile(file)], { asOf: "2026-11-01" });
    // The stray quote's line is one malformed record, at its own line; the line after it is read.
    expect(result.skips).toMatchObject({
      date: { count: 2 },
      number: { count: 1 },
      letter: { count: 1 },
      reference: { count: 1 },
    });
    expect(result.skips.line).toEqual({ count: 1, first: [{ file, line: 6, column: null }] });
    const status = (await listDatasets(db(), 400)).find((d) => d.id === "ara-gaodcore")!;
    expect(JSON.stringify({ result, status })).not.toContain(SECRET.slice(8));
    // The NUL of an identifier is dropped (jsonb refuses it); the identifier itself is data, not a message.
    expect(
      (await registerIndex(db()).certificate({ parcel: "7541901XM8174S", unit: "7541901XM8174S0005" }))?.data
        .certificateId,
    ).toBe(`ARA-${SECRET}`);
  });

  it("when the database refuses a batch: the error names lines and SQLSTATE, not parameters", async () => {
    const other = await createTestDatabase();
    try {
      const otherDb = other.database.db;
      // A constraint the rows break: the driver's own error would quote the whole batch.
      await otherDb.execute(
        sql`alter table register_records add constraint no_secret check (data->>'certificateId' not like 'ARA-sk_%')`,
      );
      const file = await aragonFile("aragon-refused.csv", [
        {},
        { numcert: `ARA-${SECRET}`, refcatastral: "7541901XM8174S0002DW" },
      ]);
      const importing = importDataset(otherDb, dataset("ara-gaodcore"), [localFile(file)], { asOf: "2026-11-01" });
      const error = (await importing.then(
        () => null,
        (e: unknown) => e as Error,
      ))!;
      expect(error.message).toBe(`${file}: writing the records of lines 2-3 failed (SQLSTATE 23514)`);
      const status = (await listDatasets(otherDb, 400)).find((d) => d.id === "ara-gaodcore")!;
      expect(status).toMatchObject({ rows: 0, lastError: error.message });
      expect(JSON.stringify(status)).not.toContain(SECRET);
    } finally {
      await other.drop();
    }
  });

  it("when an XML file breaks mid-way", async () => {
    const record = `<IdentificacionEdificio><ReferenciaCatastral>${SECRET}</Referencia></IdentificacionEdificio>`;
    const xml = `<?xml version="1.0"?><R><DatosEnergeticosDelEdificio>${record}</DatosEnergeticosDelEdificio></R>`;
    const error = await importDataset(db(), dataset("and-junta"), [localFile(await fileWith("secret.xml", xml))], {
      asOf: "2026-11-01",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegisterFileError);
    expect((error as Error).message).toMatch(/secret\.xml: line 1, column \d+: unexpected close tag\.$/);
    expect((error as Error).message).not.toContain(SECRET);
  });

  it("when an XML file holds a text of a gigabyte's kind, or a record of endless values: refused early", async () => {
    const refused = async (name: string, xml: string) =>
      (await importDataset(db(), dataset("and-junta"), [localFile(await fileWith(name, xml))], {
        asOf: "2026-11-01",
      }).catch((e: unknown) => e)) as Error;
    const text = "x".repeat(MAX_XML_TEXT_CHARS + 1);
    const long = await refused("long.xml", `<?xml version="1.0"?><R><DatosEnergeticosDelEdificio><A>${text}</A>`);
    expect(long).toBeInstanceOf(RegisterFileError);
    expect(long.message).toMatch(/long\.xml: line 1: a text or attribute value longer than 1,048,576 characters/);
    const attribute = await refused("attr.xml", `<?xml version="1.0"?><R a="${text}"/>`);
    expect(attribute.message).toMatch(/a text or attribute value longer than/);
    const values = Array.from({ length: MAX_XML_RECORD_VALUES + 1 }, (_, i) => `<V${i}>1</V${i}>`).join("");
    const wide = await refused(
      "wide.xml",
      `<R><DatosEnergeticosDelEdificio>${values}</DatosEnergeticosDelEdificio></R>`,
    );
    expect(wide.message).toMatch(/wide\.xml: line 1: a <DatosEnergeticosDelEdificio> holds more than 10,000 values/);
  });
});

describe("the encoding, from the bytes", () => {
  /** Canarias's columns with a certificate number that needs more than ASCII. */
  const CSV =
    "referencia_catastral;calificacion_consumo_anual;numero_registro;fecha_registro\n" +
    "1234567CS3413S0001OP;C;CAÑ-Ü-€1;10/05/2019\n";
  const read = async (name: string, bytes: Buffer) => {
    const file = await fileWith(name, bytes);
    await importDataset(db(), dataset("can-gobcan"), [localFile(file)], { asOf: "2026-11-01" });
    const inspection = await inspectFile(dataset("can-gobcan"), localFile(file), {});
    const hit = await registerIndex(db()).certificate({ parcel: "1234567CS3413S", unit: "1234567CS3413S0001" });
    return { id: hit?.data.certificateId, encoding: inspection.shape!.encoding!().encoding };
  };

  it("UTF-8, UTF-8 with a byte order mark and Windows-1252 all read the same", async () => {
    const windows1252 = Buffer.from(CSV.replace("€", "\x80"), "latin1");
    expect(await read("utf8.csv", Buffer.from(CSV, "utf8"))).toEqual({ id: "CAÑ-Ü-€1", encoding: "utf-8" });
    expect(await read("bom.csv", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(CSV, "utf8")]))).toEqual({
      id: "CAÑ-Ü-€1",
      encoding: "utf-8",
    });
    expect(await read("cp1252.csv", windows1252)).toEqual({ id: "CAÑ-Ü-€1", encoding: "windows-1252" });
  });
});

describe("the dry run", () => {
  it("on a good file: format, encoding, header, columns, five records, what is left out; nothing written", async () => {
    const before = await listDatasets(db(), 400);
    const inspection = await inspectFile(dataset("cat-icaen"), localFile(fixture("cat-icaen")), {});
    expect(inspection.error).toBeNull();
    expect(inspection.shape).toMatchObject({ format: "CSV", delimiter: ";", headerLine: 1, match: { missing: [] } });
    expect(inspection.shape!.encoding!()).toEqual({ encoding: "utf-8", switchedAtLine: null });
    expect(inspection.shape!.header).toContain("REFERENCIA CADASTRAL");
    expect(inspection.shape!.match.columns.find((c) => c.field === "rating")).toMatchObject({
      found: "Qualificació de consum d'energia primaria no renovable",
      required: true,
    });
    expect(inspection.samples).toHaveLength(5);
    expect(inspection.samples[0]).toMatchObject({
      sourceRow: 2,
      kind: "certificate",
      unit: "0625102DF3802F0001",
      data: { rating: "E", primaryEnergyKwhM2Year: 214.61 },
    });
    expect(inspection).toMatchObject({
      records: 6,
      totals: { sourceRows: 6, skipped: 2, skips: { reference: { count: 1 }, rating: { count: 1 } } },
    });
    expect(await listDatasets(db(), 400)).toEqual(before);
  });

  it("on a file missing a column: which, with its near matches, and why an import would refuse it", async () => {
    const text = (await import("node:fs/promises")).readFile(fixture("cat-icaen"), "utf8");
    const renamed = await fileWith(
      "cat-renamed.csv",
      (await text).replace("REFERENCIA CADASTRAL", "Referencia_Cadastral"),
    );
    const inspection = await inspectFile(dataset("cat-icaen"), localFile(renamed), {});
    expect(inspection.shape!.match.missing).toEqual(["reference"]);
    expect(inspection.shape!.match.columns.find((c) => c.field === "reference")).toMatchObject({
      found: null,
      required: true,
      near: ["Referencia_Cadastral"],
    });
    expect(inspection.error).toBe(
      `${renamed}: line 1: the header lacks the column "REFERENCIA CADASTRAL" (near: "Referencia_Cadastral") ` +
        "that cat-icaen needs",
    );
    expect(inspection.samples).toEqual([]);
  });
});

describe("column overrides", () => {
  it("map a renamed export's columns to the dataset's, without a code change", async () => {
    const file = await fileWith(
      "renamed.csv",
      "REF_CATASTRAL,CALIFICACION,fec_emision\n7541901XM8174S0001SQ,B,2021-01-01 0:00\n",
    );
    await expect(
      importDataset(db(), dataset("ara-gaodcore"), [localFile(file)], { asOf: "2026-11-01" }),
    ).rejects.toThrow(/lacks the columns "refcatastral"/);
    const columns = { refcatastral: "REF_CATASTRAL", clasificacion_consumo: "CALIFICACION" };
    const result = await importDataset(db(), dataset("ara-gaodcore"), [localFile(file)], {
      asOf: "2026-11-02",
      columns,
    });
    expect(result).toMatchObject({ rows: 1, skipped: 0 });
    expect(
      (await registerIndex(db()).certificate({ parcel: "7541901XM8174S", unit: "7541901XM8174S0001" }))?.data,
    ).toMatchObject({ rating: "B", issuedOn: "2021-01-01" });
  });
});

describe("a stray quote costs only its own record, counted at its true line", () => {
  const PARCEL = "1416301YJ2711N";
  const ref = (n: number) => {
    const unit = PARCEL + String(n).padStart(4, "0");
    return unit + checkLetters(unit);
  };
  /** Ten rows of Valencia's columns (REFERENCIA_CATASTRAL, letter, end, number), row `n` on line n + 1. */
  const rows = (d: string) =>
    Array.from({ length: 10 }, (_, i) => [ref(i + 1), "E", "01/01/2033", `R${i + 1}`].join(d));
  const header = (d: string) => ["REFERENCIA_CATASTRAL", "CONSUMO_EP_LETRA", "VALIDO_HASTA", "REGISTRO"].join(d);
  /** Where each row's certificate in the index comes from (its line), null when it is not there. */
  const kept = async () => {
    const units = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const hit = await registerIndex(db()).certificate({ parcel: PARCEL, unit: ref(i + 1).slice(0, 18) });
        return hit?.sourceRow ?? null;
      }),
    );
    return units;
  };

  for (const [format, d] of [
    ["CSV", ","],
    ["TSV", "\t"],
  ] as const) {
    for (const [where, row] of [
      ["start", 1],
      ["middle", 5],
      ["end", 10],
    ] as const) {
      it(`${format}: a quote never closed in the ${where} row leaves out that row alone`, async () => {
        const body = rows(d);
        body[row - 1] = `"${body[row - 1]}`;
        const text = `${[header(d), ...body].join("\r\n")}\r\n`;
        const file = await fileWith(`stray-${where}.${format.toLowerCase()}`, text);
        const result = await importDataset(db(), dataset("val-gva"), [localFile(file)], { asOf: "2026-11-01" });
        expect(result.rows).toBe(9);
        expect(result.skipped).toBe(1);
        expect(result.skips).toEqual({ line: { count: 1, first: [{ file, line: row + 1, column: null }] } });
        // Every other row is in the index, at its own line.
        const units = await kept();
        expect(units).toEqual(Array.from({ length: 10 }, (_, i) => (i + 1 === row ? null : i + 2)));
        // The summary adds up to the file's 11 lines.
        expect(result.lines).toEqual({ header: 1, rows: 9, malformed: 1, blank: 0 });
      });
    }

    it(`${format}: quotes inside or closing an unquoted field are text; a quoted line break is one record`, async () => {
      const body = rows(d);
      body[1] = body[1]!.replace("R2", 'R"2'); // a quote in the middle of a field
      body[4] = body[4]!.replace("R5", 'R5"'); // a quote ending a field
      body[6] = body[6]!.replace("R7", '"R\n7"'); // a quoted field holding a line break
      const text = [header(d), ...body.slice(0, 8), "", ...body.slice(8)].join("\n");
      const file = await fileWith(`quotes.${format.toLowerCase()}`, text);
      const result = await importDataset(db(), dataset("val-gva"), [localFile(file)], { asOf: "2026-11-01" });
      expect(result).toMatchObject({ rows: 10, skipped: 0, skips: {} });
      const units = await kept();
      // Rows 1-6 on lines 2-7; row 7 spans lines 8-9; row 8 on line 10; line 11 blank; rows 9-10 on 12-13.
      expect(units).toEqual([2, 3, 4, 5, 6, 7, 8, 10, 12, 13]);
      expect(result.lines).toEqual({ header: 1, rows: 11, malformed: 0, blank: 1 });
      expect(text.split("\n")).toHaveLength(13);
      const hit = await registerIndex(db()).certificate({ parcel: PARCEL, unit: ref(2).slice(0, 18) });
      expect(hit!.data.certificateId).toBe('R"2');
      const multi = await registerIndex(db()).certificate({ parcel: PARCEL, unit: ref(7).slice(0, 18) });
      // One record: its number whole (control characters, the line break too, are dropped from text).
      expect(multi!.data.certificateId).toBe("R7");
    });
  }

  it("two stray quotes do not pair up across the rows between them; the dry run counts alike", async () => {
    const body = rows(";");
    body[1] = `"${body[1]}`;
    body[4] = `"${body[4]}`;
    const file = await fileWith("two-strays.csv", [header(";"), ...body].join("\n"));
    const inspection = await inspectFile(dataset("val-gva"), localFile(file), {});
    expect(inspection.records).toBe(8);
    expect(inspection.totals.skips.line!.first.map((p) => p.line)).toEqual([3, 6]);
    expect(inspection.totals.lines).toEqual({ header: 1, rows: 8, malformed: 2, blank: 0 });
  });
});
