import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { UpstreamError } from "../http";
import { parseDnprc } from "./parse";

const fixture = (name: string) => JSON.parse(readFileSync(path.join(__dirname, "fixtures", name), "utf8"));
const found = (outcome: ReturnType<typeof parseDnprc>) => {
  if (outcome.kind !== "found") throw new Error(`expected found, got ${JSON.stringify(outcome)}`);
  return outcome.data;
};

describe("parseDnprc on every recorded Consulta_DNPRC answer", () => {
  it("Madrid 9398516VK3799G: a parcel of 18 units, reported as the building", () => {
    const outcome = parseDnprc(fixture("json-ovc-dnprc-urbana-9398516VK3799G.json"), "9398516VK3799G");
    expect(found(outcome)).toEqual({
      reference: "9398516VK3799G",
      kind: "urban",
      // Without the floor and door of the first unit (a basement, `pt: -1`).
      address: "CL SAN RESTITUTO 72 C 28039 MADRID (MADRID)",
      municipality: "MADRID",
      province: "MADRID",
      provinceCode: "28",
      municipalityCode: "28079",
      use: "Residencial", // 17 of 18 units; the first is the car park
      surfaceM2: 2486, // the sum over the units
      yearBuilt: 1997,
      units: 18,
    });
    expect(outcome).toMatchObject({ summary: { units: 18, municipality: "28079" } });
  });

  it("rustic 13005A10900005: one unit, resolved to its 20 characters (Alcázar de San Juan)", () => {
    expect(found(parseDnprc(fixture("json-ovc-dnprc-rustica-13005A10900005.json"), "13005A10900005"))).toEqual({
      reference: "13005A109000050000SL",
      kind: "rustic",
      address: "ER EXTRARRADIO Polígono 109 Parcela 5 C.BOLSA. 13600 ALCAZAR DE SAN JUAN (CIUDAD REAL)",
      municipality: "ALCAZAR DE SAN JUAN",
      province: "CIUDAD REAL",
      provinceCode: "13",
      municipalityCode: "13005",
      use: "Agrario",
      surfaceM2: 25,
      yearBuilt: 1997,
      units: 1,
    });
  });

  it("2749704YJ0624N0001DI (Godelleta): no `loine` in this answer, INE code from the cartography link", () => {
    expect(found(parseDnprc(fixture("json-dnprc-20char-single-2749704YJ0624N0001DI.pretty.json"), "2749704YJ0624N0001DI"))).toEqual({
      reference: "2749704YJ0624N0001DI",
      kind: "urban",
      address: "CL GUAYANA-MOJONERA 3 46388 GODELLETA (VALENCIA)",
      municipality: "GODELLETA",
      province: "VALENCIA",
      provinceCode: "46",
      municipalityCode: "46136",
      use: "Residencial",
      surfaceM2: 94,
      yearBuilt: 1976,
    });
  });

  it("without `loine` nor the link, by the names (Godelleta is 46136, its Catastro code 46138)", () => {
    const body = fixture("json-dnprc-20char-single-2749704YJ0624N0001DI.pretty.json");
    delete body.consulta_dnprcResult.bico.finca;
    expect(found(parseDnprc(body, "2749704YJ0624N0001DI"))).toMatchObject({ provinceCode: "46", municipalityCode: "46136" });
    body.consulta_dnprcResult.bico.bi.dt.nm = "NOWHERE";
    expect(found(parseDnprc(body, "2749704YJ0624N0001DI"))).toMatchObject({ provinceCode: null, municipalityCode: null });
  });

  it("without `ldt`, the address is built from dir, loint, dp, nm, np", () => {
    const body = fixture("json-ovc-dnprc-urbana-9398516VK3799G.json");
    const unit = body.consulta_dnprcResult.lrcdnp.rcdnp[1];
    body.consulta_dnprcResult = { control: { cudnp: 1 }, bico: { bi: { idbi: { cn: "UR", rc: unit.rc }, dt: unit.dt, debi: unit.debi } } };
    expect(found(parseDnprc(body, "9398516VK3799G0002SU"))).toMatchObject({
      reference: "9398516VK3799G0002SU",
      address: "CL SAN RESTITUTO 72 C Pl:01 Pt:01 28039 MADRID (MADRID)",
      use: "Residencial",
      surfaceM2: 125,
    });
  });

  it("cod 5 is not found", () => {
    expect(parseDnprc(fixture("json-dnprc-notfound-cod5.json"), "9398516VK3799G0001AY")).toEqual({
      kind: "not_found",
      summary: { cod: 5, des: "NO EXISTE NINGÚN INMUEBLE CON LOS PARÁMETROS INDICADOS" },
    });
  });

  it("cod 17 and every other code is an error carrying the Catastro code", () => {
    expect(parseDnprc(fixture("json-ovc-dnprc-cod17.json"), "x")).toEqual({ kind: "error", code: "catastro_17", message: "LA REFERENCIA CATASTRAL ES OBLIGATORIA" });
    // The XML-style nesting (`lerr.err`) is read too.
    expect(parseDnprc({ consulta_dnprcResult: { lerr: { err: { cod: "12", des: "LA PROVINCIA NO EXISTE" } } } }, "x")).toMatchObject({ code: "catastro_12" });
  });

  it("anything else is malformed", () => {
    const malformed = (body: unknown) => {
      try {
        parseDnprc(body, "x");
      } catch (error) {
        return error instanceof UpstreamError ? error.code : "other";
      }
      return "parsed";
    };
    expect(malformed({ other: 1 })).toBe("malformed");
    expect(malformed(null)).toBe("malformed");
    expect(malformed([])).toBe("malformed");
    expect(malformed({ consulta_dnprcResult: { control: {} } })).toBe("malformed");
    expect(malformed({ consulta_dnprcResult: { lrcdnp: { rcdnp: [] } } })).toBe("malformed");
  });
});
