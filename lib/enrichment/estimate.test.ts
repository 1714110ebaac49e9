import { describe, expect, it } from "vitest";
import { RATINGS, type Rating } from "@/lib/domain";
import { populationByWinterZone } from "@/lib/reference-data";
import evidence from "./data/rating-evidence.json";
import model from "./data/rating-model.json";
import {
  estimateEnergyCertificate,
  estimateProbabilities,
  mixture,
  ratedUse,
  type ModelParameters,
  type Period,
} from "./estimate";

const residential = (yearBuilt: number | null, climateZone: string | null = "C2", ccaa: string | null = null) =>
  estimateEnergyCertificate({ yearBuilt, climateZone, use: "Residencial", ccaa });
const mean = (p: Record<Rating, number>) => RATINGS.reduce((s, r, i) => s + i * p[r], 0);
const share = (p: Record<Rating, number>, key: string) => [...key].reduce((s, r) => s + p[r as Rating], 0);

type Table = (typeof evidence.tables)[number];
const params = model.parameters as ModelParameters;
const region = (t: Table) => (t.zones === "national" ? null : t.zones);
/** Percentage points between the model and a table, for each letter (or group) it gives. */
function gaps(t: Table): Record<string, number> {
  const p = mixture(params, t.periods as Partial<Record<Period, number>>, populationByWinterZone(region(t)), region(t));
  return Object.fromEntries(
    Object.entries(t.letters).map(([key, observed]) => [key, Math.abs(100 * (share(p, key) - observed))]),
  );
}

/** The tolerance the held-out tables are held to, per letter (docs/enrichment.md, "The estimated rating"). */
const HELD_OUT_POINTS = 5;
/** The tolerance every fully weighted fitted table is held to, per letter. */
const FITTED_POINTS = 7;

describe("calibration against published distributions", () => {
  it(`held out: tables the fit never saw within ${HELD_OUT_POINTS} points per letter`, () => {
    const heldOut = evidence.tables.filter((t) => t.role === "holdout");
    expect(heldOut.map((t) => t.id)).toEqual(["madrid-registry-2014", "spain-stock-2018"]);
    for (const t of heldOut)
      for (const [letter, gap] of Object.entries(gaps(t)))
        expect(gap, `${t.id} ${letter}`).toBeLessThan(HELD_OUT_POINTS);
    expect(residential(1960, "D3", "Comunidad de Madrid")!.rating).toBe("E");
  });

  it(`fitted: every fully weighted table within ${FITTED_POINTS} points per letter`, () => {
    for (const t of evidence.tables.filter((t) => t.role === "fit" && t.weight === 1)) {
      for (const [key, gap] of Object.entries(gaps(t))) expect(gap, `${t.id} ${key}`).toBeLessThan(FITTED_POINTS);
    }
  });

  it("the stored fit is what the stored parameters predict (rating-model.json is current)", () => {
    for (const row of model.fit) {
      const t = evidence.tables.find((t) => t.id === row.id)!;
      const p = mixture(
        params,
        t.periods as Partial<Record<Period, number>>,
        populationByWinterZone(region(t)),
        region(t),
      );
      for (const [key, value] of Object.entries(row.predicted))
        expect(share(p, key), `${row.id} ${key}`).toBeCloseTo(value, 3);
    }
    expect(model.fittedTo).toEqual(evidence.tables.filter((t) => t.role === "fit").map((t) => t.id));
    expect(model.assumptions).toEqual(evidence.assumptions);
  });
});

describe("the regional effect", () => {
  const communities = Object.keys(params.regions);
  const efg = (ccaa: string) =>
    share(estimateProbabilities({ yearBuilt: 1970, climateZone: null, use: "Residencial", ccaa })!, "EFG");

  it("is fitted for every community with a published table of its own, and none other", () => {
    const tabled = new Set(
      evidence.tables.filter((t) => t.role === "fit" && t.zones !== "national").map((t) => t.zones),
    );
    expect(new Set(communities)).toEqual(tabled);
  });

  it("spreads a 1970 flat's chance of E, F or G over regions as the published shares do, in their order", () => {
    const spread = Math.max(...communities.map(efg)) - Math.min(...communities.map(efg));
    expect(spread).toBeGreaterThan(0.06);
    // IDAE: Castilla y León 76.1 %, Madrid 77.2 %, … Valencia 83.1 %, Canarias 85.5 %.
    expect(efg("Castilla y León")).toBeLessThan(efg("Comunidad de Madrid") + 0.01);
    expect(efg("Comunidad de Madrid")).toBeLessThan(efg("Comunitat Valenciana"));
    expect(efg("Comunitat Valenciana")).toBeLessThan(efg("Canarias"));
  });

  it("leaves a community without a table at Spain's average, and says so", () => {
    expect(estimateProbabilities({ yearBuilt: 1970, climateZone: "D3", use: "Residencial", ccaa: "Aragón" })).toEqual(
      estimateProbabilities({ yearBuilt: 1970, climateZone: "D3", use: "Residencial", ccaa: null }),
    );
    expect(residential(1970, "D3", "Aragón")!.basis).toContain(
      "Aragón (no published table of its own: Spain's average)",
    );
  });
});

describe("estimateEnergyCertificate", () => {
  it("no longer pushes pre-2007 cold-winter buildings a letter worse: a 1960 Madrid flat and a 1985 Burgos one are E", () => {
    expect(residential(1960, "D3", "Comunidad de Madrid")!.rating).toBe("E");
    expect(residential(1985, "E1", "Castilla y León")!.rating).toBe("E");
  });

  it("newer standards rate better, period by period", () => {
    const means = [1950, 1990, 2010, 2016].map((y) => mean(residential(y)!.probabilities!));
    for (let i = 1; i < means.length; i++) expect(means[i]!).toBeLessThan(means[i - 1]!);
  });

  it("new builds: the 2017 new-build table, not a confident A, and very low confidence", () => {
    for (const year of [2016, 2024]) {
      const c = residential(year, "C2", "Cataluña")!;
      expect(c.probabilities!.A).toBeLessThan(0.3);
      expect(c.confidence).toBe("very_low");
      expect(c.basis).toContain(
        "a new build: one national table of 2017 new buildings stands for every post-2013 building",
      );
    }
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

  it("is an estimate whose basis names standard, zone, community, data and every assumption", () => {
    const c = residential(1975, "D3", "Comunidad de Madrid")!;
    expect(c).toMatchObject({ source: "estimated", confidence: "low", registry: null, issued_on: null, expired: null });
    const facts = "built 1975 (no thermal standard), winter zone D, Comunidad de Madrid";
    const region = "(its regional effect, fitted to its published shares)";
    expect(c.basis!.startsWith(`${facts} ${region}, residential; `)).toBe(true);
    expect(c.basis).toContain(`ordinal model fitted to ${model.fittedTo.length} published distributions`);
    for (const assumption of evidence.assumptions) expect(c.basis).toContain(assumption);
    expect(c.basis).toMatch(/; not a certificate$/);
  });

  it("non-residential, unknown use or unknown zone: very low confidence; an unknown zone mixes the community's", () => {
    expect(
      estimateEnergyCertificate({ yearBuilt: 1990, climateZone: "C2", use: "Oficinas", ccaa: null })?.confidence,
    ).toBe("very_low");
    expect(estimateEnergyCertificate({ yearBuilt: 1990, climateZone: "C2", use: null, ccaa: null })?.confidence).toBe(
      "very_low",
    );
    expect(residential(1990, null, "Galicia")).toMatchObject({
      confidence: "very_low",
      basis: expect.stringContaining("climate zone unknown (Galicia's mix of zones by population)"),
    });
  });

  it("rates nothing a certificate would not: land, farming, industry, parking and storage; nor without a plausible year", () => {
    for (const use of [
      "Agrario",
      "Industrial",
      "Almacen-Estacionamiento",
      "Obras de urbanización y jardinería, suelos sin edificar",
    ]) {
      expect(ratedUse(use)).toBe(false);
      expect(estimateEnergyCertificate({ yearBuilt: 1990, climateZone: "C2", use, ccaa: null })).toBeNull();
    }
    expect(residential(null)).toBeNull();
    expect(residential(0)).toBeNull();
  });
});
