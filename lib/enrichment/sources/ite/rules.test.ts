import { describe, expect, it } from "vitest";
import { provinceByCode } from "@/lib/reference-data";
import { FIRST_INSPECTION_AGE, firstInspectionAge, iteRequirement } from "./rules";

const now = new Date("2026-06-01T00:00:00Z");

describe("iteRequirement", () => {
  it.each([
    ["Comunidad de Madrid", 1997, "not_required"], // 29 years
    ["Comunidad de Madrid", 1996, "required"], // 30 years: due this year
    ["Cataluña", 1982, "not_required"],
    ["Cataluña", 1981, "required"],
    ["Comunitat Valenciana", 1977, "not_required"],
    ["Comunitat Valenciana", 1976, "required"],
    ["País Vasco", 1977, "not_required"],
    ["País Vasco", 1950, "required"],
    ["Principado de Asturias", 2000, "not_required"],
    ["Principado de Asturias", 1976, "required"],
    ["Galicia", 1977, "not_required"],
    ["Galicia", 1900, "required"],
  ])("%s, built %i → %s", (ccaa, yearBuilt, expected) => {
    expect(iteRequirement({ ccaa, yearBuilt, now })).toBe(expected);
  });

  it("counts age from the given date", () => {
    expect(
      iteRequirement({ ccaa: "Comunidad de Madrid", yearBuilt: 1997, now: new Date("2027-01-01T00:00:00Z") }),
    ).toBe("required");
    expect(iteRequirement({ ccaa: "Comunidad de Madrid", yearBuilt: 2030, now })).toBe("not_required");
    // 00:30 on 1 January 2026 in Madrid, still 2025 in UTC: built 1996, the building is 30 there.
    const newYear = new Date("2025-12-31T23:30:00Z");
    expect(iteRequirement({ ccaa: "Comunidad de Madrid", yearBuilt: 1996, now: newYear })).toBe("required");
  });

  it("never claims not_required where the threshold is unconfirmed", () => {
    for (const ccaa of [
      "Castilla y León",
      "Canarias",
      "Andalucía",
      "Aragón",
      "Región de Murcia",
      "Ciudad Autónoma de Ceuta",
      "Madrid",
    ]) {
      expect(iteRequirement({ ccaa, yearBuilt: 2020, now })).toBe("unknown");
      expect(iteRequirement({ ccaa, yearBuilt: 1900, now })).toBe("unknown");
    }
    expect(iteRequirement({ ccaa: null, yearBuilt: 2020, now })).toBe("unknown");
    expect(iteRequirement({ ccaa: "toString", yearBuilt: 2020, now })).toBe("unknown");
  });

  it("is unknown without a year built", () => {
    expect(iteRequirement({ ccaa: "Comunidad de Madrid", yearBuilt: null, now })).toBe("unknown");
    expect(iteRequirement({ ccaa: "Comunidad de Madrid", yearBuilt: 0, now })).toBe("unknown");
  });

  it("keys its thresholds by the community names the reference data derives", () => {
    const names = new Set<string | undefined>(Array.from({ length: 52 }, (_, i) => provinceByCode(i + 1)?.ccaa));
    expect(Object.keys(FIRST_INSPECTION_AGE).filter((ccaa) => !names.has(ccaa))).toEqual([]);
    expect(firstInspectionAge(provinceByCode("08")!.ccaa)).toBe(45);
    expect(firstInspectionAge(provinceByCode("33")!.ccaa)).toBe(50);
    expect(firstInspectionAge(provinceByCode("09")!.ccaa)).toBeNull();
  });
});
