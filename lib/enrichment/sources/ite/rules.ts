// When a building needs its first technical inspection (ITE/IEE), per autonomous community.
// Since STC 143/2017 each region sets the age; only thresholds confirmed by two sources in the
// research notes are used, so `not_required` is never claimed on a guess:
//   Comunidad de Madrid 30 (Ley 9/2001 art. 169; Decreto 103/2016), Cataluña 45 (Decreto 67/2015),
//   Comunitat Valenciana 50 (Decreto 53/2018), País Vasco 50 (Decreto 241/2012), Principado de
//   Asturias 50 (2017 decree), Galicia 50 (2021 decree).
// Castilla y León (40), Canarias and the cities with own ordinances are unconfirmed: "unknown".
export const FIRST_INSPECTION_AGE: Readonly<Record<string, number>> = {
  "Comunidad de Madrid": 30,
  "Cataluña": 45,
  "Comunitat Valenciana": 50,
  "País Vasco": 50,
  "Principado de Asturias": 50,
  "Galicia": 50,
};

export type IteRequirement = "not_required" | "required" | "unknown";

export function iteRequirement({ ccaa, yearBuilt, now = new Date() }: { ccaa: string | null; yearBuilt: number | null; now?: Date }): IteRequirement {
  const threshold = ccaa ? FIRST_INSPECTION_AGE[ccaa] : undefined;
  if (threshold === undefined || !yearBuilt) return "unknown";
  return now.getUTCFullYear() - yearBuilt < threshold ? "not_required" : "required";
}
