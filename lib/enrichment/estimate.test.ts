import { describe, expect, it } from "vitest";
import { estimateEnergyRating } from "./estimate";

const rate = (yearBuilt: number | null, climateZone: string | null = "B4", use: string | null = "Residencial") =>
  estimateEnergyRating({ yearBuilt, climateZone, use });

describe("estimateEnergyRating", () => {
  it.each([
    [1950, "E"],
    [1979, "E"],
    [1980, "E"],
    [2006, "E"],
    [2007, "D"],
    [2013, "D"],
    [2014, "B"],
    [2019, "B"],
    [2020, "A"],
    [2025, "A"],
  ])("year %i in a mild zone → %s", (year, rating) => {
    expect(rate(year)).toMatchObject({ rating, source: "estimated", confidence: "low" });
  });

  it("pre-2007 buildings in winter zones D and E rate one letter worse", () => {
    expect(rate(1975, "D3")?.rating).toBe("F");
    expect(rate(1990, "E1")?.rating).toBe("F");
    expect(rate(1990, "E1")?.plausible_range).toEqual(["E", "G"]);
    expect(rate(2010, "E1")?.rating).toBe("D");
    expect(rate(1975, "α3")?.rating).toBe("E");
  });

  it("labels tertiary uses very low confidence and rates no land, parking or storage", () => {
    expect(rate(1990, "C2", "Oficinas")).toMatchObject({ rating: "E", confidence: "very_low" });
    expect(rate(1990, "C2", "Almacen-Estacionamiento")).toBeNull();
    expect(rate(1990, "C2", "Obras de urbanización y jardineria, suelos sin edificar")).toBeNull();
    expect(rate(1990, "C2", "Agrario")).toBeNull();
  });

  it("makes no estimate without a year", () => {
    expect(rate(null)).toBeNull();
    expect(rate(0)).toBeNull();
  });

  it("explains its basis", () => {
    expect(rate(1975, "D3")?.basis).toMatch(/built 1975 \(no thermal standard\), climate zone D3 \(cold winter/);
  });
});
