import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { UpstreamError } from "../http";
import { classifyCatastroError, parseCpmrc, parseDnprc } from "./parse";

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
      use: "Residencial", // the largest built area (the first unit is a 505 m² car park)
      surfaceM2: 2486, // the sum over the units
      yearBuilt: 1997,
      units: 18,
      plotAreaM2: null, // a list of units carries no `finca`
      unit: null,
      postalCode: "28039",
      street: { type: "CL", name: "SAN RESTITUTO", number: "72" },
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
      plotAreaM2: 395764,
      unit: null, // a rustic unit has no staircase, floor or door
      postalCode: "13600",
      street: { type: "ER", name: "EXTRARRADIO", number: "" }, // no number: no address key
    });
  });

  it("2749704YJ0624N0001DI (Godelleta): no `loine` in this answer, INE code from the cartography link", () => {
    expect(
      found(parseDnprc(fixture("json-dnprc-20char-single-2749704YJ0624N0001DI.pretty.json"), "2749704YJ0624N0001DI")),
    ).toEqual({
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
      plotAreaM2: 839,
      unit: null, // this answer's `dt` was trimmed by its author: no `loint`
      postalCode: "46388",
      street: { type: "CL", name: "GUAYANA-MOJONERA", number: "3" },
    });
  });

  it("without `loine` nor the link, by the names (Godelleta is 46136, its Catastro code 46138)", () => {
    const body = fixture("json-dnprc-20char-single-2749704YJ0624N0001DI.pretty.json");
    delete body.consulta_dnprcResult.bico.finca;
    expect(found(parseDnprc(body, "2749704YJ0624N0001DI"))).toMatchObject({
      provinceCode: "46",
      municipalityCode: "46136",
    });
    body.consulta_dnprcResult.bico.bi.dt.nm = "NOWHERE";
    expect(found(parseDnprc(body, "2749704YJ0624N0001DI"))).toMatchObject({
      provinceCode: null,
      municipalityCode: null,
    });
  });

  it("without `ldt`, the address is built from dir, loint, dp, nm, np", () => {
    const body = fixture("json-ovc-dnprc-urbana-9398516VK3799G.json");
    const unit = body.consulta_dnprcResult.lrcdnp.rcdnp[1];
    body.consulta_dnprcResult = {
      control: { cudnp: 1 },
      bico: { bi: { idbi: { cn: "UR", rc: unit.rc }, dt: unit.dt, debi: unit.debi } },
    };
    expect(found(parseDnprc(body, "9398516VK3799G0002SU"))).toMatchObject({
      reference: "9398516VK3799G0002SU",
      address: "CL SAN RESTITUTO 72 C Pl:01 Pt:01 28039 MADRID (MADRID)",
      use: "Residencial",
      surfaceM2: 125,
      unit: { staircase: null, floor: "01", door: "01" },
      postalCode: "28039",
      street: { type: "CL", name: "SAN RESTITUTO", number: "72" },
    });
  });

  it("cod 5 is not found", () => {
    expect(parseDnprc(fixture("json-dnprc-notfound-cod5.json"), "9398516VK3799G0001AY")).toEqual({
      kind: "not_found",
      provider: "catastro-ovc",
      summary: { cod: 5, des: "NO EXISTE NINGÚN INMUEBLE CON LOS PARÁMETROS INDICADOS" },
    });
  });

  it("a request Catastro can never answer (cod 17, 12) is a permanent error carrying the Catastro code", () => {
    expect(parseDnprc(fixture("json-ovc-dnprc-cod17.json"), "x")).toEqual({
      kind: "error",
      code: "catastro_17",
      message: "LA REFERENCIA CATASTRAL ES OBLIGATORIA",
      provider: "catastro-ovc",
      permanent: true,
    });
    // The XML-style nesting (`lerr.err`) is read too.
    expect(
      parseDnprc({ consulta_dnprcResult: { lerr: { err: { cod: "12", des: "LA PROVINCIA NO EXISTE" } } } }, "x"),
    ).toMatchObject({ code: "catastro_12", permanent: true });
  });

  it("a server failure, or a code we do not know, is retried", () => {
    expect(
      parseDnprc(
        { consulta_dnprcResult: { control: { cuerr: 1 }, lerr: [{ cod: "1", des: "ERROR EN EL SERVIDOR" }] } },
        "x",
      ),
    ).toEqual({
      kind: "error",
      code: "catastro_1",
      message: "ERROR EN EL SERVIDOR",
      provider: "catastro-ovc",
    });
    expect(
      parseDnprc({ consulta_dnprcResult: { lerr: [{ cod: "99", des: "SISTEMA NO DISPONIBLE" }] } }, "x"),
    ).not.toHaveProperty("permanent");
  });

  it("a parcel's use is the use with the largest built area, not the most units", () => {
    // 17 flats of 60 m² and 20 parking spaces of 12 m²: parking has more units, housing more area.
    const unit = (i: number, luso: string, sfc: number) => ({
      rc: { pc1: "9398516", pc2: "VK3799G", car: String(i).padStart(4, "0"), cc1: "A", cc2: "A" },
      dt: {},
      debi: { luso, sfc: String(sfc), ant: "1990" },
    });
    const units = [
      ...Array.from({ length: 20 }, (_, i) => unit(i + 1, "Almacen-Estacionamiento", 12)),
      ...Array.from({ length: 17 }, (_, i) => unit(i + 21, "Residencial", 60)),
    ];
    const facts = found(parseDnprc({ consulta_dnprcResult: { lrcdnp: { rcdnp: units } } }, "9398516VK3799G"));
    expect(facts).toMatchObject({ use: "Residencial", surfaceM2: 20 * 12 + 17 * 60, units: 37 });
  });

  it("an area that is not whole square metres above zero is none, not a number made of it", () => {
    const answer = (sfc: string, ss: string) =>
      found(
        parseDnprc(
          {
            consulta_dnprcResult: {
              bico: {
                bi: {
                  idbi: { rc: { pc1: "9398516", pc2: "VK3799G", car: "0001", cc1: "A", cc2: "A" } },
                  debi: { sfc },
                },
                finca: { dff: { ss } },
              },
            },
          },
          "9398516VK3799G0001AA",
        ),
      );
    expect(answer("87", "1234")).toMatchObject({ surfaceM2: 87, plotAreaM2: 1234 });
    const impossible: [string, string][] = [
      ["-12", "1.234"],
      ["0", "87,5"],
      ["12a", ""],
    ];
    for (const [sfc, ss] of impossible)
      expect(answer(sfc, ss), `${sfc} ${ss}`).toMatchObject({ surfaceM2: null, plotAreaM2: null });
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

describe("classifyCatastroError", () => {
  it.each([
    ["5", "NO EXISTE NINGÚN INMUEBLE CON LOS PARÁMETROS INDICADOS", "not_found"],
    ["33", "LA REFERENCIA CATASTRAL NO EXISTE", "not_found"],
    ["17", "LA REFERENCIA CATASTRAL ES OBLIGATORIA", "permanent"],
    ["12", "LA PROVINCIA NO EXISTE", "permanent"],
    ["34", "LA REFERENCIA CATASTRAL DEBE TENER 14, 18 O 20 POSICIONES", "permanent"],
    ["35", "LA REFERENCIA CATASTRAL NO ESTÁ CORRECTAMENTE FORMADA", "permanent"],
    ["1", "ERROR EN EL SERVIDOR", "transient"],
    ["99", "", "transient"],
  ])("cod %s (%s) → %s", (cod, des, kind) => {
    expect(classifyCatastroError(cod, des)).toBe(kind);
  });
});

describe("parseCpmrc", () => {
  it("reads the parcel's point from the recorded answer's shape (lon = xcen, lat = ycen)", () => {
    expect(parseCpmrc(fixture("json-cpmrc-6344205CF7664S.json"))).toEqual({
      latitude: 41.2205317242857,
      longitude: 1.52328890356962,
    });
  });

  it("no point for the parcel (an error in lerr) is null; anything else is malformed", () => {
    expect(
      parseCpmrc({
        Consulta_CPMRCResult: {
          control: { cuerr: 1 },
          lerr: [{ cod: "16", des: "PARA ESA REFERENCIA NO HAY COORDENADAS" }],
        },
      }),
    ).toBeNull();
    const malformed = (body: unknown) => {
      try {
        parseCpmrc(body);
        return "parsed";
      } catch (error) {
        return error instanceof UpstreamError ? error.code : "other";
      }
    };
    expect(malformed({})).toBe("malformed");
    expect(
      malformed({
        Consulta_CPMRCResult: {
          coordenadas: { coord: [{ geo: { xcen: "439242.88", ycen: "4479664.51", srs: "EPSG:25830" } }] },
        },
      }),
    ).toBe("malformed");
    expect(
      malformed({
        Consulta_CPMRCResult: { coordenadas: { coord: [{ geo: { xcen: "abc", ycen: "41", srs: "EPSG:4326" } }] } },
      }),
    ).toBe("malformed");
  });
});
