// Estimated energy rating when no official certificate exists: a calibrated model, always
// labelled `source: "estimated"`, with the probability of each letter, a confidence and its basis.
//
// The model is an ordinal (cumulative-logit) one: P(letter ≤ k) = σ(θ_k − η), with
// η = μ(construction period) + β·(winter zone − C) + δ(community). The thermal standard in force
// sets the period (none ≤ 1979, NBE-CT-79 1980-2006, CTE DB-HE 2006 2007-2013, DB-HE 2013 or 2019
// from 2014); the winter zone (α, A … E) and the community move the whole distribution. Its
// parameters are fitted by scripts/fit-rating-model.ts to the published distributions in
// ./data/rating-evidence.json, each cited there: Spain's certified stock and new buildings (2014),
// new buildings certified in 2017 (the post-2013 rules), ICAEN's Catalonia (2014), Extremadura
// (2013-2021), Galicia's new buildings, and IDAE's share of E, F and G per community (the regional
// effects). The Comunidad de Madrid registry (2014) and Spain's certified stock of 2018 are held
// out of the fit and checked in the tests. The fitted parameters and the fit are in
// ./data/rating-model.json; every assumption the tables need is listed there and in the basis.
//
// Not estimated: land, farming, industrial units (RD 390/2021 certifies only their non-process
// parts), parking and storage, and anything without a plausible year. Non-residential uses are
// rated against a reference building, so the model (fitted on dwellings) says little: "very_low";
// so are new builds (one national table of 2017) and places whose zone is unknown.
import { RATINGS, type EnergyCertificate, type Rating } from "@/lib/domain";
import { populationByWinterZone } from "@/lib/reference-data";
import model from "./data/rating-model.json";

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

export interface ModelParameters {
  /** θ_A … θ_F, increasing. */
  thresholds: number[];
  /** μ per period, in PERIODS order. */
  periods: number[];
  /** β per step of winter zone. */
  zoneSlope: number;
  /** δ per community with a published table (reference-data names); others are Spain's average, 0. */
  regions: Record<string, number>;
}

export const periodOf = (year: number): Period =>
  year <= 1979 ? "<=1979" : year <= 2006 ? "1980-2006" : year <= 2013 ? "2007-2013" : ">=2014";

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

const regionEffect = (params: ModelParameters, ccaa: string | null) =>
  ccaa !== null && Object.hasOwn(params.regions, ccaa) ? params.regions[ccaa]! : 0;

/** P(letter) for one period, winter zone and community (null: Spain's average) under `params`. */
export function letterProbabilities(
  params: ModelParameters,
  period: Period,
  winterZone: string,
  ccaa: string | null = null,
): Record<Rating, number> {
  const zone = WINTER_ZONES.indexOf(winterZone as (typeof WINTER_ZONES)[number]) - 3;
  const eta = params.periods[PERIODS.indexOf(period)]! + params.zoneSlope * zone + regionEffect(params, ccaa);
  const cumulative = [...params.thresholds.map((t) => sigmoid(t - eta)), 1];
  return Object.fromEntries(RATINGS.map((r, k) => [r, cumulative[k]! - (k ? cumulative[k - 1]! : 0)])) as Record<
    Rating,
    number
  >;
}

/** The distribution of a population: periods and winter zones mixed by their shares, in one community or Spain. */
export function mixture(
  params: ModelParameters,
  periods: Partial<Record<Period, number>>,
  zones: Record<string, number>,
  ccaa: string | null = null,
): Record<Rating, number> {
  const out = Object.fromEntries(RATINGS.map((r) => [r, 0])) as Record<Rating, number>;
  for (const [period, pw] of Object.entries(periods) as [Period, number][]) {
    for (const [zone, zw] of Object.entries(zones)) {
      const p = letterProbabilities(params, period, zone, ccaa);
      for (const r of RATINGS) out[r] += pw * zw * p[r];
    }
  }
  return out;
}

const PARAMETERS = model.parameters as ModelParameters;

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

const winterOf = (zone: string | null) =>
  zone && (WINTER_ZONES as readonly string[]).includes(zone[0]!) ? zone[0]! : null;
const rounded = (p: Record<Rating, number>) =>
  Object.fromEntries(RATINGS.map((r) => [r, Math.round(p[r] * 1000) / 1000])) as Record<Rating, number>;

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
    { [periodOf(yearBuilt)]: 1 },
    winter ? { [winter]: 1 } : populationByWinterZone(ccaa),
    ccaa,
  );
}

/** What the model rests on, for the basis: the tables it was fitted to and the assumptions they need. */
const MODEL_BASIS =
  `ordinal model fitted to ${model.fittedTo.length} published distributions of certificates ` +
  `(${model.fittedTo.join(", ")}); assumptions: ${model.assumptions.join("; ")}`;

export function estimateEnergyCertificate(input: EstimateInput): EnergyCertificate | null {
  const probabilities = estimateProbabilities(input);
  if (!probabilities || !plausibleYear(input.yearBuilt)) return null;
  const rating = RATINGS.reduce((best, r) => (probabilities[r] > probabilities[best] ? r : best), RATINGS[0]);
  const residential = input.use !== null && /residencial/i.test(input.use);
  const winter = winterOf(input.climateZone);
  const period = periodOf(input.yearBuilt);
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
    ? `${input.ccaa} (its regional effect, fitted to its published shares)`
    : `${input.ccaa ?? "community unknown"} (no published table of its own: Spain's average)`;
  const newBuild =
    period === ">=2014"
      ? "; a new build: one national table of 2017 new buildings stands for every post-2013 building"
      : "";
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
    probabilities: rounded(probabilities),
    confidence: residential && winter && period !== ">=2014" ? "low" : "very_low",
    basis:
      `built ${input.yearBuilt} (${STANDARDS[period]}), ${zoneNote}, ${regionNote}, ${useNote}${newBuild}; ` +
      `${MODEL_BASIS}; not a certificate`,
  };
}
