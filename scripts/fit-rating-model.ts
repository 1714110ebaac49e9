// Fits the estimate's ordinal model (lib/enrichment/estimate.ts) to the published distributions in
// lib/enrichment/data/rating-evidence.json and writes lib/enrichment/data/rating-model.json with the
// parameters and, per table, what was observed and what the model predicts. Run it after changing
// the evidence, then scripts/estimate-evaluation.ts (docs/estimate.md) and the tests. Deterministic:
// a rerun writes the same file (minutes, or tens of minutes on a loaded machine).
//   node --import tsx scripts/fit-rating-model.ts
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RATINGS, type Rating } from "@/lib/domain";
import { populationByWinterZone } from "@/lib/reference-data";
import { mixture, PERIODS, type ModelParameters, type Period, type RegionEffect } from "@/lib/enrichment/estimate";
import evidence from "@/lib/enrichment/data/rating-evidence.json";

type Table = (typeof evidence.tables)[number];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Each table's winter-zone mix (computed once: the fit asks for it at every step). */
const ZONES = new Map(evidence.tables.map((t) => [t, populationByWinterZone(t.zones === "national" ? null : t.zones)]));
const zonesOf = (t: Table) => ZONES.get(t)!;

const regionOf = (t: Table) => (t.zones === "national" ? null : t.zones);

/** The model's share of each key a table gives ("E", or a group such as "EFG"). */
function predicted(params: ModelParameters, t: Table): Record<string, number> {
  const p = mixture(params, t.periods as Partial<Record<Period, number>>, zonesOf(t), regionOf(t));
  return Object.fromEntries(
    Object.keys(t.letters).map((key) => [key, [...key].reduce((sum, r) => sum + p[r as Rating], 0)]),
  );
}

const fitting = evidence.tables.filter((t) => t.role !== "holdout");
/** Communities with a table of their own that is fitted: each gets its effects (δ before and after CTE, spread). */
const REGIONS = [...new Set(fitting.map(regionOf).filter((r): r is string => r !== null))].sort();

/** Unconstrained vector → parameters: increasing thresholds, μ(≤1979) = 0 (the scale's origin). */
function decode(x: number[]): ModelParameters {
  const thresholds = [x[0]!];
  for (let k = 1; k < RATINGS.length - 1; k++) thresholds.push(thresholds[k - 1]! + Math.exp(x[k]!));
  const at = 6 + PERIODS.length - 1;
  const region = (i: number): RegionEffect => ({
    existing: x[at + 1 + 3 * i]!,
    cte: x[at + 2 + 3 * i]!,
    spread: x[at + 3 + 3 * i]!,
  });
  return {
    thresholds,
    periods: [0, ...x.slice(6, at)],
    zoneSlope: x[at]!,
    regions: Object.fromEntries(REGIONS.map((r, i) => [r, region(i)])),
  };
}

/**
 * Pearson's χ² term of one share: (observed − predicted)² / (predicted·(1 − predicted)). A share of
 * 0.3 % counts as much as one of 82 % (squared error would let the A shares go unheard).
 */
const chi = (observed: number, predicted: number) => {
  const p = Math.min(Math.max(predicted, 1e-4), 1 - 1e-4);
  return (observed - p) ** 2 / (p * (1 - p));
};

/**
 * Penalised loss: ½·n·weight·χ² per share given, plus the Gaussian priors (evidence.json says why
 * each). With `region`, only the terms that community's parameters move: its tables and its prior.
 */
function loss(x: number[], region: string | null = null): number {
  const params = decode(x);
  let sum = 0;
  for (const t of region === null ? fitting : fitting.filter((t) => regionOf(t) === region)) {
    const p = predicted(params, t);
    for (const [key, observed] of Object.entries(t.letters))
      sum += 0.5 * evidence.effectiveN.n * (t.weight ?? 1) * chi(observed, p[key]!);
  }
  const { zoneSlopePrior: zone, regionPrior: prior } = evidence;
  const penalty = (d: RegionEffect) =>
    prior.weight *
    (((d.existing - prior.mean) / prior.sd) ** 2 +
      ((d.cte - d.existing) / prior.cteSd) ** 2 +
      (d.spread / prior.spreadSd) ** 2);
  if (region !== null) return sum + penalty(params.regions[region]!);
  const regions = Object.values(params.regions).reduce((s, d) => s + penalty(d), 0);
  return sum + zone.weight * ((params.zoneSlope - zone.mean) / zone.sd) ** 2 + regions;
}

/**
 * Nelder-Mead on `f` from `start`, with restarts until one improves by less than 1e-8: far below the
 * 1e-4 a sweep of blockDescent must gain, and loose enough that a flat valley does not keep a loaded
 * machine busy for every one of the 20 restarts.
 */
function minimise(f: (x: number[]) => number, start: number[]): number[] {
  let best = start;
  for (let restart = 0; restart < 20; restart++) {
    const n = best.length;
    let simplex = [best, ...best.map((_, i) => best.map((v, j) => (i === j ? v + 0.5 : v)))].map((x) => ({
      x,
      f: f(x),
    }));
    for (let iter = 0; iter < 20_000; iter++) {
      simplex.sort((a, b) => a.f - b.f);
      if (simplex[n]!.f - simplex[0]!.f < 1e-10) break;
      const centroid = best.map((_, j) => simplex.slice(0, n).reduce((s, p) => s + p.x[j]!, 0) / n);
      const along = (t: number) => centroid.map((c, j) => c + t * (simplex[n]!.x[j]! - c));
      const reflected = { x: along(-1), f: 0 };
      reflected.f = f(reflected.x);
      if (reflected.f < simplex[0]!.f) {
        const expanded = { x: along(-2), f: 0 };
        expanded.f = f(expanded.x);
        simplex[n] = expanded.f < reflected.f ? expanded : reflected;
      } else if (reflected.f < simplex[n - 1]!.f) simplex[n] = reflected;
      else {
        const contracted = { x: along(0.5), f: 0 };
        contracted.f = f(contracted.x);
        if (contracted.f < simplex[n]!.f) simplex[n] = contracted;
        else
          simplex = simplex
            .map((p, i) =>
              i === 0 ? p : { x: p.x.map((v, j) => simplex[0]!.x[j]! + 0.5 * (v - simplex[0]!.x[j]!)), f: 0 },
            )
            .map((p) => ({ x: p.x, f: f(p.x) }));
      }
    }
    simplex.sort((a, b) => a.f - b.f);
    if (f(best) - simplex[0]!.f < 1e-8) break;
    best = simplex[0]!.x;
  }
  return best;
}

/**
 * Block coordinate descent: the shared parameters (thresholds, periods, zone slope), then each
 * community's three, in turn, until a sweep improves the loss by less than 1e-4. A community's
 * tables depend only on the shared parameters and its own, so each block is small (Nelder-Mead is
 * slow to converge over many parameters at once) and a community's block reads only its tables.
 */
function blockDescent(start: number[]): number[] {
  let x = start;
  const shared = 6 + PERIODS.length;
  const blocks = [
    [0, shared, null],
    ...REGIONS.map((r, i) => [shared + 3 * i, shared + 3 * i + 3, r] as const),
  ] as const;
  for (let sweep = 0; sweep < 100; sweep++) {
    const before = loss(x);
    for (const [from, to, region] of blocks) {
      const part = minimise((y) => loss([...x.slice(0, from), ...y, ...x.slice(to)], region), x.slice(from, to));
      x = [...x.slice(0, from), ...part, ...x.slice(to)];
    }
    console.log(`sweep ${sweep + 1}: loss ${loss(x).toFixed(6)}`);
    if (before - loss(x) < 1e-4) break;
  }
  return x;
}

// Start: thresholds spread over the scale, newer periods better (lower η), no zone or regional effect.
const start = [-4, 0, 0, 0.3, 0.7, 0.3, -0.8, -2.5, -6, 0, ...REGIONS.flatMap(() => [0, 0, 0])];
const x = blockDescent(start);
const parameters = decode(x);
const round = (v: number) => Math.round(v * 1e4) / 1e4;
const output = {
  _about:
    "Written by scripts/fit-rating-model.ts from rating-evidence.json: the estimate's ordinal model (lib/enrichment/estimate.ts). `fit` lists each table's observed shares and the model's.",
  fittedTo: evidence.tables.filter((t) => t.role === "fit").map((t) => t.id),
  heldOut: evidence.tables.filter((t) => t.role === "holdout").map((t) => t.id),
  assumptions: evidence.assumptions,
  parameters: {
    thresholds: parameters.thresholds.map(round),
    periods: parameters.periods.map(round),
    zoneSlope: round(parameters.zoneSlope),
    regions: Object.fromEntries(
      Object.entries(parameters.regions).map(([r, d]) => [
        r,
        { existing: round(d.existing), cte: round(d.cte), spread: round(d.spread) },
      ]),
    ),
  },
  loss: round(loss(x)),
  fit: evidence.tables.map((t) => ({
    id: t.id,
    role: t.role,
    observed: t.letters,
    predicted: Object.fromEntries(Object.entries(predicted(parameters, t)).map(([k, v]) => [k, round(v)])),
  })),
};
writeFileSync(path.join(root, "lib/enrichment/data/rating-model.json"), JSON.stringify(output, null, 2) + "\n");
for (const row of output.fit)
  console.log(row.role.padEnd(8), row.id.padEnd(24), JSON.stringify(row.observed), "→", JSON.stringify(row.predicted));
console.log("parameters", JSON.stringify(output.parameters), "loss", output.loss);
