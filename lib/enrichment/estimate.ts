// Estimated energy rating when no official certificate exists: a calibrated model, always
// labelled `source: "estimated"`, with the probability of each letter, its plausible range, a
// confidence and its basis.
//
// The model is an ordinal (cumulative-logit) one: P(letter ≤ k) = σ((θ_k − η) / s), with
// η = μ(period) + β·(winter zone − C) + δ(community, period) and s the community's spread. The
// period is the thermal standard the building was permitted under (none before 1980, NBE-CT-79,
// CTE DB-HE 2006, DB-HE 2013 or 2019), read from the year Catastro gives through the time a permit
// takes to become a building (see regulationPeriods). A community moves its older stock (δ before
// CTE) and its CTE-era buildings (δ after) apart, and spreads its letters more or less widely than
// Spain's: Canarias has both Spain's highest A share and one of its highest E+F+G shares, which one
// shift cannot give. Parameters are fitted by scripts/fit-rating-model.ts to the published
// distributions in ./data/rating-evidence.json, each cited there: Spain's national tables and
// IDAE's 2019 snapshot of every community (A and E+F+G shares). Each community register's own
// summary (Madrid, Aragón, Andalucía, Catalonia, Extremadura, Galicia, Navarra, Murcia, Asturias,
// Castilla y León, Canarias), Navarra's published dataset by year built, IDAE's 2022 F+G shares and
// Spain's stock of 2018 and 2022 are held out; docs/estimate.md (scripts/estimate-evaluation.ts)
// compares. The certified stock's periods are Spain's dwelling stock's (census 2011), plus new buildings
// at the register's own share where its publisher gives one.
// The fitted parameters and the fit are in ./data/rating-model.json; every assumption the tables
// need is listed there and in the basis.
//
// Not estimated: land, farming, industrial units (RD 390/2021 certifies only their non-process
// parts), parking and storage, and anything without a plausible year. Non-residential uses are
// rated against a reference building, so the model (fitted on dwellings) says little: "very_low";
// so are new builds (one national table of 2017) and places whose zone is unknown.
import { byRating, isOneOf, RATINGS, plausibleRange, type EnergyCertificate, type Rating } from "@/lib/domain";
import { populationByWinterZone } from "@/lib/reference-data";
import model from "./data/rating-model.json";

/** Regulation periods: the thermal standard a building's permit was applied for under. */
export const PERIODS = ["<=1979", "1980-2006", "2007-2013", ">=2014"] as const;
export type Period = (typeof PERIODS)[number];
const STANDARDS: Record<Period, string> = {
  "<=1979": "no thermal standard",
  "1980-2006": "NBE-CT-79",
  "2007-2013": "CTE DB-HE 2006",
  ">=2014": "CTE DB-HE 2013 or 2019",
};
/** Winter zones from mildest to coldest; C is the reference. */
export const WINTER_ZONES = ["α", "A", "B", "C", "D", "E"] as const;

/** A community's effects: δ on buildings before CTE and on CTE-era ones, and log s (its spread). */
export interface RegionEffect {
  existing: number;
  cte: number;
  spread: number;
}

export interface ModelParameters {
  /** θ_A … θ_F, increasing. */
  thresholds: number[];
  /** μ per period, in PERIODS order. */
  periods: number[];
  /** β per step of winter zone. */
  zoneSlope: number;
  /** Per community with a published table (reference-data names); others are Spain's average (all 0). */
  regions: Record<string, RegionEffect>;
}

/**
 * The first permit applications each later standard applied to, as fractional years: NBE-CT-79
 * (RD 2429/1979) from 1980 (the research note's date); CTE DB-HE (RD 314/2006, in force 29 March
 * 2006) for permits applied for from 29 September 2006, after six months in which the earlier
 * thermal rules could still be used (its transitional provisions); DB-HE 2013 (Orden FOM/1635/2013,
 * in force 13 September 2013, the same six months) from 13 March 2014. DB-HE 2019 (RD 732/2019)
 * shares the last period: no table separates it.
 */
const PERMIT_CUTOFFS = [1980, 2006 + 271 / 365, 2014 + 71 / 365];
/**
 * Years between a permit's application and the building's completion (the year Catastro gives):
 * APCE reports a permit takes 12-14 months and a block of 120 dwellings about 20 months to build
 * (Cinco Días, 17 January 2019), about 2.75 years; ±1 year around it, evenly, is an assumption.
 */
const PERMIT_LAG = [1.75, 3.75] as const;
/** Points per dimension of the (completion day, lag) grid the period shares are averaged over. */
const GRID = 40;

/**
 * The periods a building completed in `year` was permitted under, with their shares: its completion
 * falls anywhere in the year and its permit was applied for PERMIT_LAG years before. So a building
 * finished in 2015 was permitted under CTE 2006, one finished in 2016 mostly so, and one finished
 * in 1981 most likely before NBE-CT-79.
 */
export function regulationPeriods(year: number): Partial<Record<Period, number>> {
  let shares = periodsByYear.get(year);
  if (!shares) periodsByYear.set(year, (shares = Object.freeze(gridShares(year))));
  return shares;
}

/**
 * Each year's shares, made once: the grid is 1,600 points and every create asked for its year twice
 * (the engine's largest self time in bench/create.ts --profile). Years a building can have are a few
 * hundred, so the map stays small.
 */
const periodsByYear = new Map<number, Readonly<Partial<Record<Period, number>>>>();

function gridShares(year: number): Partial<Record<Period, number>> {
  const counts: Partial<Record<Period, number>> = {};
  for (let i = 0; i < GRID; i++) {
    for (let j = 0; j < GRID; j++) {
      const lag = PERMIT_LAG[0] + ((PERMIT_LAG[1] - PERMIT_LAG[0]) * (j + 0.5)) / GRID;
      const applied = year + (i + 0.5) / GRID - lag;
      const period = PERIODS[PERMIT_CUTOFFS.filter((c) => applied >= c).length]!;
      counts[period] = (counts[period] ?? 0) + 1;
    }
  }
  return Object.fromEntries(Object.entries(counts).map(([p, n]) => [p, n / GRID ** 2]));
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

const NO_EFFECT: RegionEffect = { existing: 0, cte: 0, spread: 0 };
const regionEffect = (params: ModelParameters, ccaa: string | null) =>
  ccaa !== null && Object.hasOwn(params.regions, ccaa) ? params.regions[ccaa]! : NO_EFFECT;

/** P(letter) for one period, winter zone and community (null: Spain's average) under `params`. */
export function letterProbabilities(
  params: ModelParameters,
  period: Period,
  winterZone: string,
  ccaa: string | null = null,
): Record<Rating, number> {
  // C is 0; a zone not on the scale counts as one below the mildest (as indexOf's -1 did).
  const zone = (isOneOf(WINTER_ZONES, winterZone) ? WINTER_ZONES.indexOf(winterZone) : -1) - 3;
  const region = regionEffect(params, ccaa);
  const p = PERIODS.indexOf(period);
  const eta = params.periods[p]! + params.zoneSlope * zone + (p < 2 ? region.existing : region.cte);
  const scale = Math.exp(region.spread);
  const cumulative = [...params.thresholds.map((t) => sigmoid((t - eta) / scale)), 1];
  return byRating((_, k) => cumulative[k]! - (k ? cumulative[k - 1]! : 0));
}

/** The distribution of a population: periods and winter zones mixed by their shares, in one community or Spain. */
export function mixture(
  params: ModelParameters,
  periods: Partial<Record<Period, number>>,
  zones: Record<string, number>,
  ccaa: string | null = null,
): Record<Rating, number> {
  const out = byRating(() => 0);
  for (const [period, pw] of Object.entries(periods)) {
    if (!isOneOf(PERIODS, period) || pw === undefined) continue;
    for (const [zone, zw] of Object.entries(zones)) {
      const p = letterProbabilities(params, period, zone, ccaa);
      for (const r of RATINGS) out[r] += pw * zw * p[r];
    }
  }
  return out;
}

const PARAMETERS: ModelParameters = model.parameters;

/** Catastro uses (`luso`) with nothing a certificate rates. */
const NOT_RATED = /suelo|sin edificar|agrari|industrial|almac[eé]n|estacionamiento|urbanizaci[oó]n/i;

const plausibleYear = (year: number | null): year is number => year !== null && Number.isInteger(year) && year >= 1000;

/** Whether a certificate could exist for a unit of this use (null = unknown, assumed yes). */
export function ratedUse(use: string | null): boolean {
  return !use || !NOT_RATED.test(use);
}

export interface EstimateInput {
  yearBuilt: number | null;
  /** CTE DB-HE 2019 zone, e.g. "D3"; unknown: the population-weighted mix of the community's zones (or Spain's). */
  climateZone: string | null;
  /** Catastro main use (`luso`), e.g. "Residencial". */
  use: string | null;
  /** The autonomous community (reference-data name); null: Spain's average. */
  ccaa: string | null;
}

const winterOf = (zone: string | null) => (zone && isOneOf(WINTER_ZONES, zone[0]) ? zone[0] : null);
/**
 * The probabilities in thousandths that still sum to 1, as the contract says they do: each rounded
 * down, the thousandths left over given to the largest remainders (rounding each alone summed to
 * 0.999 or 1.001 for many inputs).
 */
function rounded(p: Record<Rating, number>): Record<Rating, number> {
  const total = RATINGS.reduce((sum, r) => sum + p[r], 0);
  const exact = byRating((r) => (p[r] / total) * 1000);
  const floors = byRating((r) => Math.floor(exact[r]));
  let left = 1000 - RATINGS.reduce((sum, r) => sum + floors[r], 0);
  for (const r of [...RATINGS].sort((a, b) => exact[b] - floors[b] - (exact[a] - floors[a]))) {
    if (left-- <= 0) break;
    floors[r] += 1;
  }
  return byRating((r) => floors[r] / 1000);
}

/** The model's probability of each letter, or null when no estimate can be made. */
export function estimateProbabilities({
  yearBuilt,
  climateZone,
  use,
  ccaa,
}: EstimateInput): Record<Rating, number> | null {
  if (!plausibleYear(yearBuilt) || !ratedUse(use)) return null;
  const winter = winterOf(climateZone);
  return mixture(
    PARAMETERS,
    regulationPeriods(yearBuilt),
    winter ? { [winter]: 1 } : populationByWinterZone(ccaa),
    ccaa,
  );
}

/** What the model rests on, for the basis: the tables it was fitted to and the assumptions they need. */
const MODEL_BASIS =
  `ordinal model fitted to ${model.fittedTo.length} published distributions of certificates ` +
  `(${model.fittedTo.join(", ")}); assumptions: ${model.assumptions.join("; ")}`;

/** The periods a building was likely permitted under, for the basis: "CTE DB-HE 2006 70 %, …" (5 % or more). */
function permitNote(periods: Partial<Record<Period, number>>): string {
  const likely = PERIODS.filter((p) => (periods[p] ?? 0) >= 0.05).sort((a, b) => periods[b]! - periods[a]!);
  if (likely.length === 1) return `permitted under ${STANDARDS[likely[0]!]}`;
  return `permitted under ${likely.map((p) => `${STANDARDS[p]} ${Math.round(periods[p]! * 100)} %`).join(", ")}`;
}

export function estimateEnergyCertificate(input: EstimateInput): EnergyCertificate | null {
  const probabilities = estimateProbabilities(input);
  if (!probabilities || !plausibleYear(input.yearBuilt)) return null;
  const rating = RATINGS.reduce((best, r) => (probabilities[r] > probabilities[best] ? r : best), RATINGS[0]);
  const residential = input.use !== null && /residencial/i.test(input.use);
  const winter = winterOf(input.climateZone);
  const periods = regulationPeriods(input.yearBuilt);
  const newBuild = (periods[">=2014"] ?? 0) >= 0.5;
  const useNote = residential
    ? "residential"
    : input.use
      ? `non-residential use (${input.use}), rated on the residential model`
      : "use unknown, treated as residential";
  const zoneNote = winter
    ? `winter zone ${winter}`
    : `climate zone unknown (${input.ccaa ?? "Spain"}'s mix of zones by population)`;
  const regional = input.ccaa !== null && Object.hasOwn(PARAMETERS.regions, input.ccaa);
  const regionNote = regional
    ? `${input.ccaa} (its regional effects, fitted to its published shares)`
    : `${input.ccaa ?? "community unknown"} (no published table of its own: Spain's average)`;
  const newBuildNote = newBuild
    ? "; a new build: one national table of 2017 new buildings stands for every building permitted since 2014"
    : "";
  const shown = rounded(probabilities);
  return {
    rating,
    source: "estimated",
    emissions_rating: null,
    primary_energy_kwh_m2_year: null,
    emissions_kg_co2_m2_year: null,
    issued_on: null,
    registered_on: null,
    valid_until: null,
    valid_until_source: null,
    expired: null,
    scope: null,
    registry: null,
    certificate_id: null,
    probabilities: shown,
    confidence: residential && winter && !newBuild ? "low" : "very_low",
    basis:
      `built ${input.yearBuilt} (${permitNote(periods)}), ${zoneNote}, ${regionNote}, ${useNote}${newBuildNote}; ` +
      `${MODEL_BASIS}; not a certificate`,
    plausible_range: plausibleRange(probabilities),
  };
}
