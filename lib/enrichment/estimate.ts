// Estimated energy rating when no official certificate exists: a documented heuristic, always
// labelled `source: "estimated"`, never presented as a certificate.
//
// Model (docs: shared research "energy-rating-estimation"): the thermal standard in force when the
// building was built sets a point estimate — none (≤1979) E, NBE-CT-79 (1980–2006) E, CTE DB-HE
// 2006 (2007–2013) D, DB-HE 2013 (2014–2019) B, DB-HE 2019 nZEB (≥2020) A. Pre-2007 stock in winter
// zones D and E rates one letter worse (León: only 27 % reach D or better). The pre-2007 rows
// reproduce the national existing-stock mix (E ≈ 45 %); the priors are expert calibrations, not a
// fit, hence confidence "low" (residential) or "very_low" (tertiary uses, whose scale is relative
// to a reference building). No estimate without a year, or for land, parking and storage.
import type { EnergyCertificate } from "@/drizzle/schema";

type Rating = EnergyCertificate["rating"];
const LETTERS: Rating[] = ["A", "B", "C", "D", "E", "F", "G"];

const PERIODS: { until: number; standard: string; rating: Rating; range: [Rating, Rating] }[] = [
  { until: 1979, standard: "no thermal standard", rating: "E", range: ["E", "G"] },
  { until: 2006, standard: "NBE-CT-79", rating: "E", range: ["D", "F"] },
  { until: 2013, standard: "CTE DB-HE 2006", rating: "D", range: ["C", "E"] },
  { until: 2019, standard: "CTE DB-HE 2013", rating: "B", range: ["A", "C"] },
  { until: Infinity, standard: "CTE DB-HE 2019", rating: "A", range: ["A", "B"] },
];

/** Uses with no building that a certificate would rate. */
const NOT_RATED = /suelo|sin edificar|agrario|almac[eé]n|estacionamiento|urbanizaci[oó]n/i;

export interface EstimateInput {
  yearBuilt: number | null;
  climateZone: string | null;
  /** Catastro main use (`luso`), e.g. "Residencial". */
  use: string | null;
}

const worse = (r: Rating, steps = 1) => LETTERS[Math.min(LETTERS.length - 1, LETTERS.indexOf(r) + steps)]!;

export function estimateEnergyRating({ yearBuilt, climateZone, use }: EstimateInput): EnergyCertificate | null {
  if (!yearBuilt || yearBuilt < 1000) return null;
  if (use && NOT_RATED.test(use)) return null;
  const period = PERIODS.find((p) => yearBuilt <= p.until)!;
  const coldWinter = Boolean(climateZone && /^[DE]/.test(climateZone));
  const shift = coldWinter && yearBuilt <= 2006 ? 1 : 0;
  const residential = !use || /residencial/i.test(use);
  return {
    rating: worse(period.rating, shift),
    source: "estimated",
    confidence: residential ? "low" : "very_low",
    plausible_range: [worse(period.range[0], shift), worse(period.range[1], shift)],
    basis:
      `built ${yearBuilt} (${period.standard})` +
      (climateZone ? `, climate zone ${climateZone}${shift ? " (cold winter: one letter worse)" : ""}` : "") +
      `, ${residential ? "residential" : `non-residential use (${use})`}; heuristic model, not a certificate`,
  };
}
