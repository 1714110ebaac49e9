import { describe, expect, it } from "vitest";
import { RATINGS, type Rating } from "@/lib/domain";
import { populationByWinterZone } from "@/lib/reference-data";
import evidence from "./data/rating-evidence.json";
import model from "./data/rating-model.json";
import { estimateEnergyCertificate, estimateProbabilities, mixture, ratedUse, type ModelParameters, type Period } from "./estimate";

const residential = (yearBuilt: number | null, climateZone: string | null = "C2") => estimateEnergyCertificate({ yearBuilt, climateZone, use: "Residencial" });
const mean = (p: Record<Rating, number>) => RATINGS.reduce((s, r, i) => s + i * p[r], 0);

describe("calibration against published distributions", () => {
  const params = model.parameters as ModelParameters;
  /** Percentage points between the model and a table, for each letter (or group) it gives. */
  const gaps = (id: string) => {
    const table = evidence.tables.find((t) => t.id === id)!;
    const p = mixture(params, table.periods as Partial<Record<Period, number>>, populationByWinterZone(table.zones === "national" ? null : table.zones));
    return Object.fromEntries(Object.entries(table.letters).map(([key, observed]) => [key, Math.abs(100 * ([...key].reduce((s, r) => s + p[r as Rating], 0) - observed))]));
  };

  it("held out: the Comunidad de Madrid registry (≈162,000 certificates) within 10 percentage points per letter, E the most likely", () => {
    for (const [letter, gap] of Object.entries(gaps("madrid-registry"))) expect(gap, letter).toBeLessThan(10);
    expect(residential(1960, "D3")!.rating).toBe("E");
  });

  it("fitted: every published table within 10 percentage points", () => {
    for (const t of evidence.tables.filter((t) => t.role === "fit")) {
      for (const [key, gap] of Object.entries(gaps(t.id))) expect(gap, `${t.id} ${key}`).toBeLessThan(10);
    }
  });

  it("the stored fit is what the stored parameters predict (rating-model.json is current)", () => {
    for (const row of model.fit) {
      const table = evidence.tables.find((t) => t.id === row.id)!;
      const p = mixture(params, table.periods as Partial<Record<Period, number>>, populationByWinterZone(table.zones === "national" ? null : table.zones));
      for (const [key, value] of Object.entries(row.predicted)) expect([...key].reduce((s, r) => s + p[r as Rating], 0), `${row.id} ${key}`).toBeCloseTo(value, 3);
    }
    expect(model.fittedTo).toEqual(evidence.tables.filter((t) => t.role === "fit").map((t) => t.id));
  });
});

describe("estimateEnergyCertificate", () => {
  it("no longer pushes pre-2007 cold-winter buildings a letter worse: a 1960 Madrid flat and a 1985 Burgos one are E", () => {
    expect(residential(1960, "D3")!.rating).toBe("E");
    expect(residential(1985, "E1")!.rating).toBe("E");
  });

  it("newer standards rate better, period by period", () => {
    const years = [1950, 1990, 2010, 2016, 2022];
    const means = years.map((y) => mean(residential(y)!.probabilities!));
    for (let i = 1; i < means.length; i++) expect(means[i]!).toBeLessThan(means[i - 1]!);
    expect(residential(2022)!.rating).toBe("A");
  });

  it("gives probabilities over A-G that sum to 1, and the rating is the most probable letter", () => {
    for (const year of [1900, 1979, 1980, 2006, 2007, 2013, 2014, 2019, 2020, 2025]) {
      const c = residential(year)!;
      const p = c.probabilities!;
      expect(Object.keys(p)).toEqual([...RATINGS]);
      expect(Object.values(p).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
      expect(p[c.rating]).toBe(Math.max(...Object.values(p)));
    }
  });

  it("is labelled an estimate with a basis naming the standard, the zone and the data", () => {
    expect(residential(1975, "D3")).toMatchObject({
      source: "estimated",
      confidence: "low",
      registry: null,
      issued_on: null,
      expired: null,
      basis: expect.stringMatching(/^built 1975 \(no thermal standard\), winter zone D, residential; ordinal model fitted to 5 published distributions .*spain-existing-2014.*not a certificate$/),
    });
  });

  it("non-residential, unknown use or unknown zone: very low confidence; an unknown zone mixes Spain's", () => {
    expect(estimateEnergyCertificate({ yearBuilt: 1990, climateZone: "C2", use: "Oficinas" })?.confidence).toBe("very_low");
    expect(estimateEnergyCertificate({ yearBuilt: 1990, climateZone: "C2", use: null })?.confidence).toBe("very_low");
    expect(residential(1990, null)).toMatchObject({ confidence: "very_low", basis: expect.stringContaining("climate zone unknown") });
  });

  it("rates nothing a certificate would not: land, farming, industry, parking and storage; nor without a plausible year", () => {
    for (const use of ["Agrario", "Industrial", "Almacen-Estacionamiento", "Obras de urbanización y jardinería, suelos sin edificar"]) {
      expect(ratedUse(use)).toBe(false);
      expect(estimateEnergyCertificate({ yearBuilt: 1990, climateZone: "C2", use })).toBeNull();
    }
    expect(residential(null)).toBeNull();
    expect(residential(0)).toBeNull();
    expect(estimateProbabilities({ yearBuilt: 1990, climateZone: "C2", use: "Residencial" })).not.toBeNull();
  });
});
