// Registry values read strictly: absent (null) is told from written-but-unreadable, which the
// register index counts and live lookups drop.
import { describe, expect, it } from "vitest";
import { readDate, readFigure, readLetter, registryCertificate, text, UNREADABLE } from "./fields";

describe("readDate", () => {
  it.each([
    ["2019-05-10", "2019-05-10"],
    ["2019-05-10T00:00:00.000", "2019-05-10"],
    ["2019-05-10 0:00", "2019-05-10"], // Aragón's view
    ["2019/5/1", "2019-05-01"],
    ["10/05/2019", "2019-05-10"],
    ["1-2-2020", "2020-02-01"],
    ["10.05.2019 12:00:00", "2019-05-10"],
    ["29/02/2024", "2024-02-29"],
    // An instant with its offset is the day it was in Spain: this G certificate is under RD 390/2021.
    ["2021-06-01T22:00:00Z", "2021-06-02"],
    ["2021-06-01T23:30:00+01:00", "2021-06-02"],
    ["2021-06-01T10:00:00.000Z", "2021-06-01"],
  ])("%s → %s", (value, date) => expect(readDate(value)).toBe(date));

  it.each(["", "  ", "-", "N/D", "null", undefined, null])("%j is absent", (value) =>
    expect(readDate(value)).toBeNull(),
  );

  it.each([
    "02/28/2032",
    "31/02/2020",
    "29/02/2023",
    "2019-13-01",
    "0000-00-00",
    "0001-01-01",
    "pendiente",
    "44562",
    "2019",
  ])("%s is unreadable (month first, impossible, a placeholder, a serial number, a year)", (value) =>
    expect(readDate(value)).toBe(UNREADABLE),
  );
});

describe("readFigure", () => {
  it.each([
    ["214.61", 214.61],
    ["172,35", 172.35],
    ["1.234,5", 1234.5],
    ["1.234.567", 1234567],
    ["1,234,567", 1234567],
    ["1.234.567,5", 1234567.5],
    ["142,33 kWh/m2 año", 142.33],
    ["57 kgCO2/m2 año", 57],
    ["0", 0],
    [12.5, 12.5],
  ])("%j → %d", (value, n) => expect(readFigure(value)).toBe(n));

  it.each(["", "-", "N/D"])("%j is absent", (value) => expect(readFigure(value)).toBeNull());

  it.each(["n.d. kWh", "-5", "abc", "12 34", "1e3", "2.5E-1", "1.234.567,8,9", -1, Number.NaN])(
    "%j is unreadable",
    (value) => expect(readFigure(value)).toBe(UNREADABLE),
  );
});

describe("readLetter", () => {
  it.each([
    ["E", "E"],
    [" d ", "D"],
    ["E - Calificación E", "E"], // Cantabria
  ])("%j → %s", (value, letter) => expect(readLetter(value)).toBe(letter));

  it.each(["", "-", "N/D", undefined])("%j is absent", (value) => expect(readLetter(value)).toBeNull());

  it.each(["H", "A+", "en trámite", "EF"])("%j is unreadable", (value) => expect(readLetter(value)).toBe(UNREADABLE));
});

describe("registryCertificate", () => {
  it("leaves out what it cannot read and says which field and why", () => {
    const problems: string[] = [];
    const certificate = registryCertificate(
      {
        rating: "E",
        emissionsRating: "H",
        primaryEnergy: "n.d.",
        emissions: "44,1 kgCO2/m2 año",
        issuedOn: "02/28/2032",
        validUntil: "2032-02-28",
        certificateId: "X\u0000-1",
      },
      "unit",
      "R",
      (field, problem) => problems.push(`${field}:${problem}`),
    );
    expect(certificate).toEqual({
      rating: "E",
      emissionsRating: null,
      primaryEnergyKwhM2Year: null,
      emissionsKgCo2M2Year: 44.1,
      issuedOn: null,
      registeredOn: null,
      validUntil: "2032-02-28",
      scope: "unit",
      registry: "R",
      certificateId: "X-1",
    });
    expect(problems).toEqual(["emissionsRating:letter", "primaryEnergy:number", "issuedOn:date"]);
  });

  it("text drops control characters (PostgreSQL's jsonb refuses a NUL)", () => {
    expect(text(" a\u0000b\u0007 ")).toBe("ab");
    expect(text("\u0000")).toBeNull();
  });
});
