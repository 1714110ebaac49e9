import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { plausibleRange, RATINGS, type Rating } from "@/lib/domain";
import evidence from "./data/rating-evidence.json";
import model from "./data/rating-model.json";
import {
  estimateEnergyCertificate,
  estimateProbabilities,
  letterProbabilities,
  ratedUse,
  regulationPeriods,
  type ModelParameters,
} from "./estimate";
import { evaluationMarkdown, evaluationRows, predictedShares, rankCorrelation } from "./estimate-evaluation";

const residential = (yearBuilt: number | null, climateZone: string | null = "C2", ccaa: string | null = null) =>
  estimateEnergyCertificate({ yearBuilt, climateZone, use: "Residencial", ccaa });
const mean = (p: Record<Rating, number>) => RATINGS.reduce((s, r, i) => s + i * p[r], 0);
const share = (p: Record<Rating, number>, key: string) => [...key].reduce((s, r) => s + p[r as Rating], 0);
const params = model.parameters as ModelParameters;

/** The tolerance the held-out tables are held to, per letter (issue 40: within 5 points). */
const HELD_OUT_POINTS = 5;

describe("regulationPeriods: the standard a building was permitted under, from the year it was finished", () => {
  const sum = (p: Record<string, number>) => Object.values(p).reduce((a, b) => a + b, 0);

  it("gives shares that sum to 1, one period far from any change of rules", () => {
    for (const year of [1900, 1981, 2008, 2015, 2016, 2030]) expect(sum(regulationPeriods(year))).toBeCloseTo(1, 9);
    expect(regulationPeriods(1960)).toEqual({ "<=1979": 1 });
    expect(regulationPeriods(1995)).toEqual({ "1980-2006": 1 });
    expect(regulationPeriods(2012)).toEqual({ "2007-2013": 1 });
    expect(regulationPeriods(2020)).toEqual({ ">=2014": 1 });
  });

  it("puts buildings finished 2014-2016 mostly under CTE 2006, whose permits predate DB-HE 2013", () => {
    expect(regulationPeriods(2014)).toEqual({ "2007-2013": 1 });
    expect(regulationPeriods(2015)["2007-2013"]).toBeGreaterThan(0.99);
    expect(regulationPeriods(2016)["2007-2013"]).toBeGreaterThan(0.5);
    expect(regulationPeriods(2018)[">=2014"]).toBeGreaterThan(0.5);
  });

  it("moves each earlier change of rules by the same lag: 1981 and 2008 are mostly the older standard", () => {
    expect(regulationPeriods(1981)["<=1979"]).toBeGreaterThan(0.5);
    expect(regulationPeriods(2008)["1980-2006"]).toBeGreaterThan(0.5);
  });
});

describe("calibration against published distributions", () => {
  const rows = evaluationRows();

  it("the stored fit is what the stored parameters predict (rating-model.json is current)", () => {
    for (const row of model.fit) {
      const t = evidence.tables.find((t) => t.id === row.id)!;
      const predicted = predictedShares(t);
      for (const [key, value] of Object.entries(row.predicted))
        expect(predicted[key], `${row.id} ${key}`).toBeCloseTo(value, 3);
    }
    expect(model.fittedTo).toEqual(evidence.tables.filter((t) => t.role === "fit").map((t) => t.id));
    expect(model.heldOut).toEqual(evidence.tables.filter((t) => t.role === "holdout").map((t) => t.id));
    expect(model.assumptions).toEqual(evidence.assumptions);
  });

  it("docs/estimate.md is what scripts/estimate-evaluation.ts writes from the stored model", () => {
    expect(readFileSync(new URL("../../docs/estimate.md", import.meta.url), "utf8")).toBe(evaluationMarkdown());
  });

  it("holds out every community register's own summary: no community table of another source is fitted", () => {
    const fitted = evidence.tables.filter((t) => t.role === "fit" && t.zones !== "national");
    expect(fitted.every((t) => t.id.startsWith("idae-"))).toBe(true);
    expect(evidence.tables.filter((t) => t.role === "holdout").length).toBeGreaterThanOrEqual(20);
  });

  it(`held out: the tables the fit meets stay within ${HELD_OUT_POINTS} points`, () => {
    for (const id of [
      "madrid-registry-2014",
      "catalonia-registry-2014",
      "catalonia-icaen-2017",
      "navarra-registry-2022",
      "asturias-registry-2013",
      "castilla-y-leon-registry-2016-07",
      "spain-cscae-2022",
    ])
      for (const row of rows.filter((r) => r.id === id))
        expect(row.gap, `${id} ${row.key}`).toBeLessThan(HELD_OUT_POINTS);
  });

  it("held out: the communities' E+F+G shares in the order their registers publish them", () => {
    const efg = rankCorrelation("holdout", "EFG");
    expect(efg.communities.length).toBeGreaterThanOrEqual(4);
    expect(efg.rho!).toBeGreaterThan(0.6);
  });

  it("ranks each community once, from its whole-stock tables (not one band of years)", () => {
    for (const key of ["A", "EFG"]) {
      const check = rankCorrelation("holdout", key);
      expect(new Set(check.communities).size).toBe(check.communities.length);
    }
    // Navarra's A: its dataset's whole stock alone (the 2022 summary gives no A; the bands are left out).
    const a = rankCorrelation("holdout", "A");
    const navarra = a.shares[a.communities.indexOf("Comunidad Foral de Navarra")]!;
    expect(navarra.published).toBe(evidence.tables.find((t) => t.id === "navarra-dataset-2023")!.letters.A);
    // Catalonia's E+F+G: the mean of its 2014 and 2017 summaries.
    const efg = rankCorrelation("holdout", "EFG");
    expect(efg.shares[efg.communities.indexOf("Cataluña")]!.published).toBeCloseTo(
      (0.841 + 0.507 + 0.103 + 0.228) / 2,
      9,
    );
  });

  it("fitted: the communities' A and E+F+G shares in the order IDAE publishes them", () => {
    expect(rankCorrelation("fit", "A").rho!).toBeGreaterThan(0.6);
    expect(rankCorrelation("fit", "EFG").rho!).toBeGreaterThan(0.6);
  });
});

describe("the regional effects", () => {
  const communities = Object.keys(params.regions);
  const efg1970 = (ccaa: string) =>
    share(estimateProbabilities({ yearBuilt: 1970, climateZone: null, use: "Residencial", ccaa })!, "EFG");

  it("are fitted for every community with a fitted table of its own, and none other", () => {
    const tabled = new Set(
      evidence.tables.filter((t) => t.role === "fit" && t.zones !== "national").map((t) => t.zones),
    );
    expect(new Set(communities)).toEqual(tabled);
  });

  it("give Canarias both a top A share and a top E+F+G share, as IDAE publishes: a spread, not one shift", () => {
    const stock = evidence.tables.filter((t) => t.role === "fit" && t.id.startsWith("idae-") && t.zones !== "national");
    const model = (key: string) =>
      [...stock].sort((x, y) => predictedShares(y)[key]! - predictedShares(x)[key]!).map((t) => t.zones);
    expect(
      model("A")
        .filter((c) => stock.some((t) => t.zones === c && "A" in t.letters))
        .indexOf("Canarias"),
    ).toBeLessThan(2);
    expect(
      model("EFG")
        .filter((c) => stock.some((t) => t.zones === c && "EFG" in t.letters))
        .indexOf("Canarias"),
    ).toBeLessThan(3);
    expect(params.regions.Canarias!.spread).toBeGreaterThan(0);
    expect(efg1970("Canarias")).toBeGreaterThan(efg1970("Comunidad de Madrid"));
  });

  it("apply the community's effect on CTE-era buildings to buildings permitted since CTE only", () => {
    const r: ModelParameters = { ...params, regions: { X: { existing: 0, cte: 2, spread: 0 } } };
    expect(letterProbabilities(r, "1980-2006", "C", "X")).toEqual(letterProbabilities(r, "1980-2006", "C", null));
    expect(mean(letterProbabilities(r, "2007-2013", "C", "X"))).toBeGreaterThan(
      mean(letterProbabilities(r, "2007-2013", "C", null)),
    );
  });

  it("leave a community without a table at Spain's average, and say so", () => {
    expect(estimateProbabilities({ yearBuilt: 1970, climateZone: "D3", use: "Residencial", ccaa: "Aragón" })).toEqual(
      estimateProbabilities({ yearBuilt: 1970, climateZone: "D3", use: "Residencial", ccaa: null }),
    );
    expect(residential(1970, "D3", "Aragón")!.basis).toContain(
      "Aragón (no published table of its own: Spain's average)",
    );
  });
});

describe("estimateEnergyCertificate", () => {
  it("rates a 1960 Madrid flat and a 1985 Burgos one E, the most common letter of their stock", () => {
    expect(residential(1960, "D3", "Comunidad de Madrid")!.rating).toBe("E");
    expect(residential(1985, "E1", "Castilla y León")!.rating).toBe("E");
  });

  it("newer standards rate better, period by period", () => {
    const means = [1950, 1990, 2012, 2020].map((y) => mean(residential(y)!.probabilities!));
    for (let i = 1; i < means.length; i++) expect(means[i]!).toBeLessThan(means[i - 1]!);
  });

  it("new builds: the 2017 new-build table, not a confident A, and very low confidence", () => {
    for (const year of [2018, 2024]) {
      const c = residential(year, "C2", "Cataluña")!;
      expect(c.probabilities!.A).toBeLessThan(0.3);
      expect(c.confidence).toBe("very_low");
      expect(c.basis).toContain(
        "a new build: one national table of 2017 new buildings stands for every building permitted since 2014",
      );
    }
    // Finished in 2015: permitted under CTE 2006, not a new build under DB-HE 2013.
    expect(residential(2015)!.basis).toContain("built 2015 (permitted under CTE DB-HE 2006)");
    expect(residential(2015)!.confidence).toBe("low");
    expect(residential(2016)!.basis).toMatch(
      /built 2016 \(permitted under CTE DB-HE 2006 \d+ %, CTE DB-HE 2013 or 2019/,
    );
  });

  it("gives probabilities over A-G that sum to 1, the most probable letter, and the range that holds 80 % of them", () => {
    for (const year of [1900, 1979, 1980, 2006, 2007, 2013, 2014, 2019, 2020, 2025]) {
      const c = residential(year)!;
      const p = c.probabilities!;
      expect(Object.keys(p)).toEqual([...RATINGS]);
      // In thousandths, exactly 1 (each letter rounded alone summed to 0.999 or 1.001 for many inputs).
      expect(Object.values(p).reduce((a, b) => a + Math.round(b * 1000), 0)).toBe(1000);
      expect(p[c.rating]).toBe(Math.max(...Object.values(p)));
      const { from, to } = c.plausible_range!;
      const run = RATINGS.slice(RATINGS.indexOf(from), RATINGS.indexOf(to) + 1);
      expect(run).toContain(c.rating);
      expect(share(p, run.join(""))).toBeGreaterThan(0.79);
      expect(c.plausible_range).toEqual(
        plausibleRange(estimateProbabilities({ yearBuilt: year, climateZone: "C2", use: "Residencial", ccaa: null })!),
      );
    }
  });

  it("is an estimate whose basis names standard, zone, community, data and every assumption", () => {
    const c = residential(1975, "D3", "Comunidad de Madrid")!;
    expect(c).toMatchObject({ source: "estimated", confidence: "low", registry: null, issued_on: null, expired: null });
    const facts = "built 1975 (permitted under no thermal standard), winter zone D, Comunidad de Madrid";
    const region = "(its regional effects, fitted to its published shares)";
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
