import { describe, expect, it } from "vitest";
import {
  allMunicipalities,
  ccaaForProvince,
  climateZone,
  climateZoneForMunicipality,
  municipalityByCatastroCode,
  municipalityByIne,
  provinceByCode,
  sandboxMunicipalities,
  SANDBOX_MIN_POPULATION,
} from ".";
import expected from "./data/expected-zones.json";

const expectedZone = (ine: string) => (expected as Record<string, string>)[ine];

describe("climate zone (CTE DB-HE 2019)", () => {
  it.each([
    ["28079", "D3"], // Madrid
    ["41091", "B4"], // Sevilla
    ["09059", "E1"], // Burgos
    ["08019", "C2"], // Barcelona
  ])("%s → %s, as the research table says", (ine, zone) => {
    expect(climateZoneForMunicipality(ine)).toBe(zone);
    expect(expectedZone(ine)).toBe(zone);
  });

  it("uses α zones in the Canary Islands", () => {
    expect(climateZoneForMunicipality("35016")).toBe("α3"); // Las Palmas de Gran Canaria, 6 m
    expect(climateZoneForMunicipality("38038")).toBe("α3"); // Santa Cruz de Tenerife
  });

  it("gives provincial capitals the zone the table names for them, not their altitude band", () => {
    expect(climateZoneForMunicipality("45168")).toBe("C4"); // Toledo: band D3
    expect(climateZoneForMunicipality("17079")).toBe("D2"); // Girona: band C2
    expect(climateZoneForMunicipality("32054")).toBe("D2"); // Ourense: band C3
    expect(expectedZone("45168")).toBe("D3");
  });

  it("agrees with the research table's band zone for every municipality", () => {
    const mismatches = allMunicipalities().filter(
      (m) => climateZone(m.provinceCode, m.altitudeM) !== expectedZone(m.ine),
    );
    expect(allMunicipalities()).toHaveLength(8131);
    expect(mismatches).toEqual([]);
  });

  it("applies bands lower-inclusive, upper-exclusive", () => {
    expect(climateZone("02", 449)).toBe("C3");
    expect(climateZone("02", 449.9)).toBe("C3");
    expect(climateZone("02", 450)).toBe("D3");
    expect(climateZone("02", 5000)).toBe("E1");
    expect(climateZone("2", 100)).toBe("C3");
  });

  it("is null for unknown codes", () => {
    expect(climateZoneForMunicipality("99999")).toBeNull();
    expect(climateZoneForMunicipality("")).toBeNull();
    expect(climateZone("99", 100)).toBeNull();
    expect(climateZone("28", Number.NaN)).toBeNull();
  });
});

describe("reference data", () => {
  it("derives the autonomous community from the province", () => {
    expect(ccaaForProvince("28")).toBe("Comunidad de Madrid");
    expect(ccaaForProvince("8")).toBe("Cataluña");
    expect(ccaaForProvince("46")).toBe("Comunitat Valenciana");
    expect(ccaaForProvince("35")).toBe("Canarias");
    expect(ccaaForProvince("99")).toBeNull();
  });

  it("knows all 52 provinces", () => {
    const codes = Array.from({ length: 52 }, (_, i) => String(i + 1).padStart(2, "0"));
    expect(codes.filter((c) => !provinceByCode(c))).toEqual([]);
    expect(provinceByCode("09")).toMatchObject({ name: "Burgos", ccaa: "Castilla y León", catastro: true });
    expect(provinceByCode("31")).toMatchObject({ catastro: false });
  });

  it("maps INE and Catastro municipality codes both ways", () => {
    expect(municipalityByIne("28079")).toMatchObject({ name: "Madrid", catastroCode: "28900", provinceCode: "28" });
    expect(municipalityByCatastroCode("28900")?.ine).toBe("28079");
    expect(municipalityByCatastroCode("54057")?.ine).toBe("36057"); // Vigo
    expect(municipalityByIne("48020")?.catastroCode).toBeNull(); // Bilbao: foral cadastre
    expect(municipalityByIne(28079)?.name).toBe("Madrid");
    expect(municipalityByCatastroCode("99999")).toBeNull();
  });

  it("offers the sandbox sizeable towns the national cadastre covers, in every such province", () => {
    const towns = sandboxMunicipalities();
    expect(towns.length).toBeGreaterThan(1000);
    expect(
      towns.every(
        (m) => m.catastroCode && m.population >= SANDBOX_MIN_POPULATION && provinceByCode(m.provinceCode)?.catastro,
      ),
    ).toBe(true);
    expect(new Set(towns.map((m) => m.provinceCode)).size).toBe(48);
  });
});
