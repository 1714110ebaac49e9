// Fields derived locally from the cadastre's INE codes: autonomous community and CTE climate zone.
import { CLIMATE_BANDS, ccaaForProvince, municipalityByIne } from "@/lib/reference-data";

export { ccaaForProvince };

/**
 * CTE DB-HE 2019, Annex B, Table B.1: the first band of the province whose upper limit exceeds the
 * altitude (null = no limit). Edges follow the primary transcription: lower-inclusive,
 * upper-exclusive (the official wording at exact multiples of 50 m is unconfirmed).
 */
export function climateZone(provinceCode: string, altitudeM: number): string | null {
  const bands = CLIMATE_BANDS[provinceCode.padStart(2, "0")];
  if (!bands || !Number.isFinite(altitudeM)) return null;
  return bands.find(([max]) => max === null || altitudeM < max)?.[1] ?? null;
}

/**
 * The zone of a municipality from its capital's altitude (IGN). Provincial capitals take the zone
 * Table B.1 names for them: the standard fixes it directly, and for Girona, Ourense and Toledo the
 * band of the IGN altitude would disagree with it (see lib/reference-data/data/README.md).
 */
export function climateZoneForMunicipality(ineCode: string): string | null {
  const m = municipalityByIne(ineCode);
  if (!m) return null;
  return m.capitalZone ?? climateZone(m.provinceCode, m.altitudeM);
}
