// Fields derived locally from the cadastre's INE codes: autonomous community and CTE climate zone.
import { CLIMATE_BANDS, ccaaForProvince, municipalityByIne } from "@/lib/reference-data";

export { ccaaForProvince };

/**
 * CTE DB-HE 2019, Annex B, Table B.1: the first band of the province with altitude < its upper
 * limit (null = no limit). Band edges follow the primary transcription (lower-inclusive).
 */
export function climateZone(provinceCode: string, altitudeM: number): string | null {
  const bands = CLIMATE_BANDS[provinceCode.padStart(2, "0")];
  if (!bands) return null;
  return bands.find(([max]) => max === null || altitudeM < max)?.[1] ?? null;
}

/**
 * The zone of a municipality from its capital's altitude (IGN). Provincial capitals take the
 * table's reference zone for the capital, which the standard fixes independently of altitude.
 */
export function climateZoneForMunicipality(ineCode: string): string | null {
  const m = municipalityByIne(ineCode);
  if (!m) return null;
  return m.capitalZone ?? climateZone(m.provinceCode, m.altitudeM);
}
