// The formats the public evidence shows, each imported as the publisher serves it (files here are
// CONSTRUCTED from the fixtures; the evidence for each format is in the fixtures' README):
// Aragón's 16 columns, Galicia's UTF-8, Castilla-La Mancha's ten files and `.xls`, Valencia's own
// registry label, Madrid's single address column, ICAEN's `,` and `;` exports.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import { createTestDatabase, type TestDatabase } from "@/test/support/database";
import { importDataset, inspectFile, localFile, registerIndex, RegisterFileError } from "@/lib/registers";
import { dataset, fileWith, fixture, fixtureBytes, importFixture } from "./support";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.drop());
const db = () => testDb.database.db;
const index = () => registerIndex(db());

describe("Aragón, GA_OD_Core view 237", () => {
  it("reads the 16 columns: figures like `201,4 kWh/m2 año`, `-` for no letter, `fec_expira` as validity", async () => {
    expect(await importFixture(db(), "ara-gaodcore")).toMatchObject({
      rows: 5,
      skipped: 2,
      skips: { rating: { count: 1 }, reference: { count: 1 } },
    });
    const certificate = await index().certificate({ parcel: "7541901XM8174S", unit: "7541901XM8174S0001" });
    // "201,4 kWh/m2 año", "44,1 kgCO2/m2 año", "2019-05-10 0:00" and fec_expira "2029-05-10 0:00".
    const figures = { primaryEnergyKwhM2Year: 201.4, emissionsKgCo2M2Year: 44.1 };
    const read = { ...figures, issuedOn: "2019-05-10", validUntil: "2029-05-10" };
    expect(certificate?.data).toMatchObject({ rating: "E", ...read, certificateId: "ARA-0001" });
  });

  it("reads the view's XLSX download as it reads its CSV", async () => {
    const csv = await importFixture(db(), "ara-gaodcore");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("view_237");
    const lines = (await fixtureBytes("ara-gaodcore")).toString("utf8").trim().split("\n");
    for (const line of lines)
      sheet.addRow([...line.matchAll(/"([^"]*)"|([^,]+)|(?<=,)(?=,|$)/g)].map((m) => m[1] ?? m[2] ?? ""));
    const file = await fileWith("view_237.xlsx", Buffer.from(await workbook.xlsx.writeBuffer()));
    const xlsx = await importDataset(db(), dataset("ara-gaodcore"), [localFile(file)], { asOf: "2026-11-01" });
    expect({ rows: xlsx.rows, skipped: xlsx.skipped }).toEqual({ rows: csv.rows, skipped: csv.skipped });
    expect((await index().certificate({ parcel: "7541901XM8174S", unit: "7541901XM8174S0001" }))?.data).toMatchObject({
      validUntil: "2029-05-10",
      primaryEnergyKwhM2Year: 201.4,
    });
  });
});

describe("Galicia", () => {
  it("reads its file as UTF-8, and a Windows-1252 copy of it alike", async () => {
    const utf8 = await inspectFile(dataset("gal-xunta"), localFile(fixture("gal-xunta")), {});
    expect(utf8.shape!.encoding!()).toEqual({ encoding: "utf-8", switchedAtLine: null });
    const copy = await fileWith(
      "galicia-1252.csv",
      Buffer.from((await fixtureBytes("gal-xunta")).toString("utf8"), "latin1"),
    );
    const windows = await inspectFile(dataset("gal-xunta"), localFile(copy), {});
    expect(windows.shape!.encoding!()).toEqual({ encoding: "windows-1252", switchedAtLine: 2 });
    expect(windows.samples).toEqual(utf8.samples.map((s) => ({ ...s })));
  });
});

describe("Castilla-La Mancha", () => {
  it("imports its ten per-province files as one dataset (here two: a province's A-O and P-Z)", async () => {
    const [header, ...rows] = (await fixtureBytes("clm-jccm")).toString("latin1").split("\r\n").filter(Boolean);
    const first = await fileWith(
      "CertificadosEEE_Toledo A-O.txt",
      Buffer.from([header, ...rows.slice(0, 3)].join("\r\n") + "\r\n", "latin1"),
    );
    const second = await fileWith(
      "CertificadosEEE_Toledo P-Z.txt",
      Buffer.from([header, ...rows.slice(3)].join("\r\n") + "\r\n", "latin1"),
    );
    const whole = await importFixture(db(), "clm-jccm");
    const split = await importDataset(db(), dataset("clm-jccm"), [localFile(first), localFile(second)], {
      asOf: "2026-11-01",
    });
    expect({ rows: split.rows, skipped: split.skipped }).toEqual({ rows: whole.rows, skipped: whole.skipped });
  });

  it("refuses the published `.xls` (an Excel 97-2003 workbook), saying to save it as `.xlsx`", async () => {
    const ole2 = Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(504)]);
    const xls = await fileWith("CertificadosEEE_Toledo A-O.xls", ole2);
    const error = await importDataset(db(), dataset("clm-jccm"), [localFile(xls)], { asOf: "2026-11-01" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RegisterFileError);
    expect((error as Error).message).toBe(
      `${xls}: line 1: an Excel 97-2003 workbook (.xls): open it and save it as .xlsx, then import that`,
    );
  });
});

describe("Comunitat Valenciana's yearly files", () => {
  it("carry their own registry label, not the live WFS's", async () => {
    await importFixture(db(), "val-gva");
    const hit = await index().certificate({ parcel: "1416301YJ2711N", unit: "1416301YJ2711N0001" });
    expect(hit?.data.registry).toBe("GVA registro de certificados (ficheros ETIQUETA)");
    expect(hit?.data.registry).not.toBe("GVA GCEE WFS");
  });
});

describe("Madrid city's inspections", () => {
  it("read a single address column, as the one peer reading the file expects, in any case", async () => {
    const csv = [
      "DIRECCION;RESULTADO_ITE;FECHA_ITE;FECHA_VENCIMIENTO",
      "CALLE DE SAN RESTITUTO 72;DESFAVORABLE;20/06/2023;20/06/2033",
      "Avda. de la Albufera, 12;FAVORABLE;01/02/2020;",
      "Calle de Alcalá S/N;FAVORABLE;01/02/2020;",
    ].join("\n");
    const file = await fileWith("ite-madrid.csv", csv);
    const result = await importDataset(db(), dataset("mad-ite"), [localFile(file)], { asOf: "2026-11-01" });
    expect(result).toMatchObject({
      rows: 2,
      skipped: 1,
      skips: { address: { count: 1, first: [{ file, line: 4, column: "DIRECCION" }] } },
    });
    expect(
      await index().inspection({ parcel: "9398516VK3799G", addressKey: "28079|CALLE|SAN RESTITUTO|72" }),
    ).toMatchObject({
      data: { result: "unfavourable", inspectedOn: "2023-06-20", nextDueOn: "2033-06-20" },
    });
    expect(
      (await index().inspection({ parcel: "9398516VK3799G", addressKey: "28079|AVENIDA|ALBUFERA|12" }))?.data,
    ).toMatchObject({ result: "favourable" });
  });
});

describe("ICAEN's export", () => {
  it("reads the `,` export (Socrata's default, figures quoted) as it reads the `;` one", async () => {
    const semicolons = await importFixture(db(), "cat-icaen");
    const text = await readFile(fixture("cat-icaen"), "utf8");
    const commas = text
      .split("\r\n")
      .map((line) =>
        line
          .split(";")
          .map((field) => (field.includes(",") ? `"${field}"` : field))
          .join(","),
      )
      .join("\r\n");
    const file = await fileWith("j6ii-t3w2.csv", commas);
    const inspection = await inspectFile(dataset("cat-icaen"), localFile(file), {});
    expect(inspection.shape).toMatchObject({ delimiter: "," });
    const result = await importDataset(db(), dataset("cat-icaen"), [localFile(file)], { asOf: "2026-11-01" });
    expect({ rows: result.rows, skipped: result.skipped }).toEqual({
      rows: semicolons.rows,
      skipped: semicolons.skipped,
    });
    expect((await index().certificate({ parcel: "0625102DF3802F", unit: null }))?.data).toMatchObject({
      primaryEnergyKwhM2Year: 1234.5,
    });
  });
});
