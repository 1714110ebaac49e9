// Estimated energy rating when no official certificate exists: a documented heuristic, always
// labelled `source: "estimated"` with a confidence and its basis, never presented as a certificate.
//
// Model (project research "energy-rating-estimation", heuristic prior for residential stock):
// - The thermal standard in force when the building was built sets a prior over A–G; the point
//   estimate is its most likely letter, the plausible range the letters holding most of its mass:
//     ≤ 1979     no thermal standard   E  (E–G)
//     1980–2006  NBE-CT-79             E  (D–F)
//     2007–2013  CTE DB-HE 2006        D  (C–E)   CTE-compliant buildings cannot rate below E
//     2014–2019  CTE DB-HE 2013        B  (A–C)
//     ≥ 2020     CTE DB-HE 2019 (nZEB) A  (A–B)
//   The two pre-2007 priors together reproduce the national certified existing stock of 2014
//   (D 11 %, E 45 %, F 12 %, G 28 %); the others follow the 2014 new-build figures and Galicia's
//   post-2008 certificates. They are expert calibrations, not a fit: confidence is at best "low".
// - Winter zones D and E (León, Burgos, Soria...) rate one letter worse before 2007 (León: only
//   27 % reach D or better). Zones α, A, B, C: no shift, the scale's limits are per climate.
// - Non-residential uses are rated against a reference building, so the letter says little:
//   the same table, confidence "very_low". An unknown use is treated as residential, also
//   "very_low".
// - No estimate without a plausible year, nor for what no certificate rates: land, farming,
//   industrial units (RD 390/2021 certifies only their non-process parts, such as offices) and
//   parking or storage units.
// - Not applied: the research's single-family adjustment (the cadastre facts carry no building
//   type) and any surface adjustment (no published evidence).
import { RATINGS, type EnergyCertificate, type Rating } from "@/lib/domain";

export type EstimatedCertificate = EnergyCertificate & {
  source: "estimated";
  confidence: "low" | "very_low";
  plausible_range: [Rating, Rating];
  basis: string;
};

interface Period {
  /** Last year of construction in the period. */
  until: number;
  standard: string;
  range: [Rating, Rating];
  /** P(A), P(B) … P(G) for residential units built in the period. */
  prior: readonly number[];
}

const PERIODS: readonly Period[] = [
  { until: 1979, standard: "no thermal standard", range: ["E", "G"], prior: [0, 0, 0.02, 0.08, 0.45, 0.15, 0.3] },
  { until: 2006, standard: "NBE-CT-79", range: ["D", "F"], prior: [0, 0.01, 0.05, 0.2, 0.5, 0.12, 0.12] },
  { until: 2013, standard: "CTE DB-HE 2006", range: ["C", "E"], prior: [0.03, 0.07, 0.25, 0.4, 0.25, 0, 0] },
  { until: 2019, standard: "CTE DB-HE 2013", range: ["A", "C"], prior: [0.25, 0.4, 0.3, 0.05, 0, 0, 0] },
  { until: Infinity, standard: "CTE DB-HE 2019", range: ["A", "B"], prior: [0.7, 0.25, 0.05, 0, 0, 0, 0] },
];

/** Last construction year before the CTE (2006) whose stock the cold-winter shift applies to. */
const LAST_PRE_CTE_YEAR = 2006;

/** Catastro uses (`luso`) with nothing a certificate rates. */
const NOT_RATED = /suelo|sin edificar|agrari|industrial|almac[eé]n|estacionamiento|urbanizaci[oó]n/i;

const plausibleYear = (year: number | null): year is number => year !== null && Number.isInteger(year) && year >= 1000;
const periodOf = (year: number) => PERIODS.find((p) => year <= p.until)!;
const mostLikely = (prior: readonly number[]) => RATINGS[prior.indexOf(Math.max(...prior))]!;
const worse = (r: Rating, steps: number) => RATINGS[Math.min(RATINGS.length - 1, RATINGS.indexOf(r) + steps)]!;

/** Whether a certificate could exist for a unit of this use (null = unknown, assumed yes). */
export function ratedUse(use: string | null): boolean {
  return !use || !NOT_RATED.test(use);
}

/**
 * The model's prior P(letter) for a residential unit built in `yearBuilt` (no climate shift), or
 * null without a plausible year. The sandbox registry draws its certificates from it.
 */
export function ratingPrior(yearBuilt: number | null): ReadonlyMap<Rating, number> | null {
  if (!plausibleYear(yearBuilt)) return null;
  return new Map(periodOf(yearBuilt).prior.map((p, i) => [RATINGS[i]!, p]));
}

export interface EstimateInput {
  yearBuilt: number | null;
  climateZone: string | null;
  /** Catastro main use (`luso`), e.g. "Residencial". */
  use: string | null;
}

export function estimateEnergyRating({ yearBuilt, climateZone, use }: EstimateInput): EstimatedCertificate | null {
  if (!plausibleYear(yearBuilt) || !ratedUse(use)) return null;
  const period = periodOf(yearBuilt);
  const coldWinter = climateZone !== null && /^[DE]/.test(climateZone);
  const shift = coldWinter && yearBuilt <= LAST_PRE_CTE_YEAR ? 1 : 0;
  const residential = use !== null && /residencial/i.test(use);
  const useNote = residential ? "residential" : use ? `non-residential use (${use})` : "use unknown, treated as residential";
  return {
    rating: worse(mostLikely(period.prior), shift),
    source: "estimated",
    confidence: residential ? "low" : "very_low",
    plausible_range: [worse(period.range[0], shift), worse(period.range[1], shift)],
    basis:
      `built ${yearBuilt} (${period.standard})` +
      (climateZone ? `, climate zone ${climateZone}${shift ? " (cold winter, pre-2007: one letter worse)" : ""}` : ", climate zone unknown") +
      `, ${useNote}; heuristic model, not a certificate`,
  };
}
