// When a building needs its first technical inspection (ITE/IEE), per autonomous community.
// Since STC 143/2017 annulled the state rule, each region (and some cities) sets the age. Only the
// thresholds the project research marks as confirmed are used, so `not_required` is never claimed
// on a guess:
//   Comunidad de Madrid 30 (Ley 9/2001 art. 169; Decreto 103/2016), Cataluña 45 (Decreto 67/2015),
//   Comunitat Valenciana 50 (Decreto 53/2018, IEE.CV), País Vasco 50 (Decreto 241/2012),
//   Principado de Asturias 50 (2017 decree), Galicia 50 (2021 decree).
// Castilla y León (40, one source), Canarias ("80", doubtful), the city ordinances (Sevilla,
// Málaga, Granada) and the other regions are unconfirmed: "unknown".
// Age is counted in calendar years (current year − year built); a building reaching the threshold
// this year is due. Scope limits (Cataluña and Asturias: multi-dwelling residential only) are not
// applied: the cadastre facts do not tell single-family houses apart, and over-reporting "required"
// only costs a registry lookup, whereas a wrong "not_required" would hide a due inspection.
import { madridDay } from "@/lib/domain";
import { isCommunityName, type CommunityName } from "@/lib/reference-data";

export const FIRST_INSPECTION_AGE: Readonly<Partial<Record<CommunityName, number>>> = {
  "Comunidad de Madrid": 30,
  Cataluña: 45,
  "Comunitat Valenciana": 50,
  "País Vasco": 50,
  "Principado de Asturias": 50,
  Galicia: 50,
};

export type IteRequirement = "not_required" | "required" | "unknown";

/** The confirmed first-inspection age of a community (its name as in the reference data), or null. */
export function firstInspectionAge(ccaa: string | null): number | null {
  // Only a community's name: a name such as "toString" must not find an inherited property.
  return ccaa !== null && isCommunityName(ccaa) ? (FIRST_INSPECTION_AGE[ccaa] ?? null) : null;
}

export function iteRequirement({
  ccaa,
  yearBuilt,
  now = new Date(),
}: {
  ccaa: string | null;
  yearBuilt: number | null;
  now?: Date;
}): IteRequirement {
  const threshold = firstInspectionAge(ccaa);
  if (threshold === null || yearBuilt === null || !Number.isInteger(yearBuilt) || yearBuilt <= 0) return "unknown";
  // The year in Spain: at 00:30 on 1 January there, UTC still says the year before.
  return Number(madridDay(now).slice(0, 4)) - yearBuilt < threshold ? "not_required" : "required";
}

/** Inspections are renewed every 10 years in every region with a confirmed rule. */
export const RENEWAL_YEARS = 10;

/**
 * When a building's first inspection falls due: the end of the year it reaches its region's
 * confirmed first-inspection age (YYYY-MM-DD), or null where no age is confirmed.
 */
export function firstDueOn(ccaa: string | null, yearBuilt: number | null): string | null {
  const age = firstInspectionAge(ccaa);
  if (age === null || yearBuilt === null || !Number.isInteger(yearBuilt) || yearBuilt <= 0) return null;
  return `${yearBuilt + age}-12-31`;
}
