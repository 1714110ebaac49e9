import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseDnprc } from "./parse";

const fixture = (name: string) => JSON.parse(readFileSync(path.join(__dirname, "fixtures", name), "utf8"));

describe("parseDnprc on recorded Catastro answers", () => {
  it("14-character urban parcel with 18 units (Madrid)", () => {
    const outcome = parseDnprc(fixture("json-ovc-dnprc-urbana-9398516VK3799G.json"), "9398516VK3799G");
    expect(outcome.kind).toBe("found");
    if (outcome.kind !== "found") return;
    expect(outcome.data).toMatchObject({
      reference: "9398516VK3799G",
      kind: "urban",
      municipality: "MADRID",
      province: "MADRID",
      provinceCode: "28",
      municipalityCode: "28079",
      units: 18,
    });
    expect(outcome.data.address).toMatch(/^CL SAN RESTITUTO 72 C 28039 MADRID \(MADRID\)$/);
    expect(outcome.data.yearBuilt).toBeGreaterThan(1900);
    expect(outcome.data.use).toBeTruthy();
  });

  it("rustic parcel (Alcázar de San Juan)", () => {
    const outcome = parseDnprc(fixture("json-ovc-dnprc-rustica-13005A10900005.json"), "13005A10900005");
    expect(outcome).toMatchObject({
      kind: "found",
      data: { kind: "rustic", municipality: "ALCAZAR DE SAN JUAN", provinceCode: "13", municipalityCode: "13005", use: "Agrario", yearBuilt: 1997, surfaceM2: 25, units: 1 },
    });
    if (outcome.kind === "found") expect(outcome.data.address).toMatch(/Polígono 109 Parcela 5/);
  });

  it("20-character unit without INE codes: municipality found by name (Godelleta)", () => {
    const outcome = parseDnprc(fixture("json-dnprc-20char-single-2749704YJ0624N0001DI.pretty.json"), "2749704YJ0624N0001DI");
    expect(outcome).toMatchObject({
      kind: "found",
      data: { address: "CL GUAYANA-MOJONERA 3 46388 GODELLETA (VALENCIA)", municipalityCode: "46136", provinceCode: "46", use: "Residencial", surfaceM2: 94, yearBuilt: 1976 },
    });
  });

  it("cod 5 is not found", () => {
    expect(parseDnprc(fixture("json-dnprc-notfound-cod5.json"), "9398516VK3799G0001AY")).toMatchObject({ kind: "not_found" });
  });

  it("other codes are errors with the Catastro code", () => {
    expect(parseDnprc(fixture("json-ovc-dnprc-cod17.json"), "x")).toMatchObject({ kind: "error", code: "catastro_17" });
  });

  it("anything else is malformed", () => {
    expect(() => parseDnprc({ other: 1 }, "x")).toThrow(/consulta_dnprcResult/);
    expect(() => parseDnprc({ consulta_dnprcResult: { control: {} } }, "x")).toThrow(/neither bico nor lrcdnp/);
  });
});
