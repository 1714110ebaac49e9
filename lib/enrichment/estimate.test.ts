import { describe, expect, it } from "vitest";
import { RATINGS } from "@/lib/domain";
import { estimateEnergyRating, ratedUse, ratingPrior } from "./estimate";

const rate = (yearBuilt: number | null, climateZone: string | null = "B4", use: string | null = "Residencial") =>
  estimateEnergyRating({ yearBuilt, climateZone, use });

describe("estimateEnergyRating: construction periods", () => {
  it.each([
    [1900, "E", ["E", "G"]],
    [1979, "E", ["E", "G"]],
    [1980, "E", ["D", "F"]],
    [2006, "E", ["D", "F"]],
    [2007, "D", ["C", "E"]],
    [2013, "D", ["C", "E"]],
    [2014, "B", ["A", "C"]],
    [2019, "B", ["A", "C"]],
    [2020, "A", ["A", "B"]],
    [2025, "A", ["A", "B"]],
  ])("built %i, mild zone → %s", (year, rating, range) => {
    expect(rate(year)).toEqual({
      rating,
      source: "estimated",
      confidence: "low",
      plausible_range: range,
      basis: expect.stringContaining(`built ${year}`),
    });
  });

  it("names the standard in force", () => {
    expect(rate(1975)?.basis).toContain("no thermal standard");
    expect(rate(1990)?.basis).toContain("NBE-CT-79");
    expect(rate(2010)?.basis).toContain("CTE DB-HE 2006");
    expect(rate(2016)?.basis).toContain("CTE DB-HE 2013");
    expect(rate(2022)?.basis).toContain("CTE DB-HE 2019");
    expect(rate(2022)?.basis).toContain("not a certificate");
  });
});

describe("estimateEnergyRating: adjustments", () => {
  it("rates pre-2007 buildings in winter zones D and E one letter worse", () => {
    expect(rate(1975, "D3")).toMatchObject({ rating: "F", plausible_range: ["F", "G"] });
    expect(rate(1990, "E1")).toMatchObject({ rating: "F", plausible_range: ["E", "G"] });
    expect(rate(2006, "D1")?.rating).toBe("F");
    expect(rate(1975, "D3")?.basis).toMatch(/climate zone D3 \(cold winter/);
  });

  it("does not shift CTE-era buildings or milder zones", () => {
    expect(rate(2007, "E1")?.rating).toBe("D");
    expect(rate(2020, "E1")?.rating).toBe("A");
    for (const zone of ["α3", "A4", "B3", "C2"]) expect(rate(1975, zone)?.rating).toBe("E");
    expect(rate(1975, null)).toMatchObject({ rating: "E", basis: expect.stringContaining("climate zone unknown") });
  });

  it("keeps non-residential uses on the same table with very low confidence", () => {
    expect(rate(1990, "C2", "Oficinas")).toMatchObject({ rating: "E", confidence: "very_low", basis: expect.stringContaining("non-residential use (Oficinas)") });
    expect(rate(2016, "C2", "Comercial")).toMatchObject({ rating: "B", confidence: "very_low" });
  });

  it("treats an unknown use as residential, with very low confidence", () => {
    expect(rate(1990, "C2", null)).toMatchObject({ rating: "E", confidence: "very_low", basis: expect.stringContaining("use unknown") });
  });

  it("rates nothing a certificate would not: land, farming, industry, parking and storage", () => {
    for (const use of ["Almacen-Estacionamiento", "Obras de urbanización y jardinería, suelos sin edificar", "Agrario", "Industrial"]) {
      expect(rate(1990, "C2", use)).toBeNull();
      expect(ratedUse(use)).toBe(false);
    }
    expect(ratedUse("Residencial")).toBe(true);
    expect(ratedUse(null)).toBe(true);
  });

  it("makes no estimate without a plausible year", () => {
    expect(rate(null)).toBeNull();
    expect(rate(0)).toBeNull();
    expect(rate(999)).toBeNull();
    expect(rate(1990.5)).toBeNull();
  });
});

describe("ratingPrior", () => {
  it("is a distribution whose most likely letter is the point estimate", () => {
    for (const year of [1950, 1990, 2010, 2016, 2022]) {
      const prior = ratingPrior(year)!;
      expect([...prior.keys()]).toEqual(RATINGS);
      expect([...prior.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      const mode = [...prior.entries()].sort((a, b) => b[1] - a[1])[0]![0];
      expect(rate(year)?.rating).toBe(mode);
    }
  });

  it("never puts CTE-era buildings below E", () => {
    for (const year of [2007, 2014, 2020]) expect(ratingPrior(year)!.get("F")! + ratingPrior(year)!.get("G")!).toBe(0);
  });

  it("is null without a year", () => {
    expect(ratingPrior(null)).toBeNull();
  });
});
