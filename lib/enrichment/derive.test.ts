import { describe, expect, it } from "vitest";
import { ccaaForProvince, climateZone, climateZoneForMunicipality } from "./derive";
import { allMunicipalities, municipalityByCatastroCode, municipalityByIne, provinceByCode } from "@/lib/reference-data";
import expected from "@/lib/reference-data/data/expected-zones.json";

describe("climate zone (CTE DB-HE 2019)", () => {
  it.each([
    ["28079", "D3"], // Madrid (capital reference zone)
    ["41091", "B4"], // Sevilla
    ["09059", "E1"], // Burgos
    ["08019", "C2"], // Barcelona
    ["46136", expected["46136" as keyof typeof expected]], // Godelleta
  ])("%s → %s", (ine, zone) => {
    expect(climateZoneForMunicipality(ine)).toBe(zone);
  });

  it("uses α zones in the Canary Islands", () => {
    expect(climateZoneForMunicipality("35016")).toMatch(/^α/); // Las Palmas de Gran Canaria
  });

  it("agrees with the source table's own zone for every municipality", () => {
    const mismatches = allMunicipalities().filter((m) => climateZone(m.provinceCode, m.altitudeM) !== expected[m.ine as keyof typeof expected]);
    expect(mismatches).toEqual([]);
  });

  it("applies bands lower-inclusive, upper-exclusive", () => {
    expect(climateZone("02", 449)).toBe("C3");
    expect(climateZone("02", 450)).toBe("D3");
    expect(climateZone("02", 2000)).toBe("E1");
  });

  it("is null for unknown codes", () => {
    expect(climateZoneForMunicipality("99999")).toBeNull();
    expect(climateZone("99", 100)).toBeNull();
  });
});

describe("reference data", () => {
  it("derives the autonomous community from the province", () => {
    expect(ccaaForProvince("28")).toBe("Comunidad de Madrid");
    expect(ccaaForProvince("8")).toBe("Cataluña");
    expect(ccaaForProvince("46")).toBe("Comunitat Valenciana");
    expect(ccaaForProvince("99")).toBeNull();
  });

  it("maps INE and Catastro municipality codes both ways", () => {
    expect(municipalityByIne("28079")).toMatchObject({ name: "Madrid", catastroCode: "28900", provinceCode: "28" });
    expect(municipalityByCatastroCode("54057")?.ine).toBe("36057"); // Vigo
    expect(provinceByCode("31")).toMatchObject({ catastro: false });
  });
});
