// A file's header against a dataset's fields: exact names found, near ones only reported, an
// override's name taken, the layout the header completes chosen.
import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/domain";
import { checkOverrides, matchHeader, missingColumns } from "./columns";
import { datasetById } from "./regions";

const aragon = datasetById("ara-gaodcore")!;
const madrid = datasetById("mad-ite")!;
const clm = datasetById("clm-jccm")!;

describe("matchHeader", () => {
  it("finds the expected names and nothing missing", () => {
    const match = matchHeader(aragon, ["numcert", "refcatastral", "clasificacion_consumo", "fec_emision"], {});
    expect(match.missing).toEqual([]);
    expect(match.columns.find((c) => c.field === "reference")).toMatchObject({
      found: "refcatastral",
      required: true,
      near: [],
    });
    expect(match.columns.find((c) => c.field === "validUntil")).toMatchObject({ found: null, required: false });
  });

  it("reports names differing in case, accents, spaces, punctuation or a trailing number as near, not found", () => {
    const match = matchHeader(aragon, ["RefCatastral", "Clasificación Consumo"], {});
    expect(match.missing).toEqual(["reference", "rating"]);
    expect(match.columns.find((c) => c.field === "reference")!.near).toEqual(["RefCatastral"]);
    expect(match.columns.find((c) => c.field === "rating")!.near).toEqual(["Clasificación Consumo"]);
    expect(
      matchHeader(clm, ["ns1:ReferenciaCatastral", "ns1:Global74"], {}).columns.find((c) => c.field === "rating")!.near,
    ).toEqual(["ns1:Global74"]);
    expect(missingColumns(aragon, match)).toBe(
      'the header lacks the columns "refcatastral" (near: "RefCatastral"), ' +
        '"clasificacion_consumo" (near: "Clasificación Consumo") that ara-gaodcore needs',
    );
  });

  it("takes an override's name for the expected one", () => {
    const match = matchHeader(aragon, ["REF_CATASTRAL", "clasificacion_consumo"], { refcatastral: "REF_CATASTRAL" });
    expect(match.missing).toEqual([]);
    expect(match.columns.find((c) => c.field === "reference")).toMatchObject({
      found: "REF_CATASTRAL",
      overridden: true,
      expected: ["REF_CATASTRAL"],
    });
  });

  it("chooses the layout the header completes (Madrid: one address column, or type, name and number)", () => {
    expect(matchHeader(madrid, ["direccion", "RESULTADO_ITE"], {})).toMatchObject({ missing: [] });
    expect(matchHeader(madrid, ["tipo_via", "nombre_via", "numero", "resultado_ite"], {})).toMatchObject({
      missing: [],
    });
    expect(matchHeader(madrid, ["tipo_via", "nombre_via", "resultado_ite"], {}).missing).toEqual(["number"]);
  });
});

describe("checkOverrides", () => {
  it("refuses a name the dataset does not expect, and an empty target", () => {
    expect(() => checkOverrides(aragon, { refcatastrall: "X" })).toThrow(DomainError);
    expect(() => checkOverrides(aragon, { refcatastrall: "X" })).toThrow(
      /ara-gaodcore expects no column "refcatastrall"; it expects "refcatastral"/,
    );
    expect(() => checkOverrides(aragon, { refcatastral: " " })).toThrow(/must map to a column name/);
    expect(() => checkOverrides(aragon, { refcatastral: "REF" })).not.toThrow();
  });
});
