// Generalitat Valenciana's CEE registry, WFS layer `ms:CEEEdificios` (terramapas.icv.gva.es/26_GCEE),
// filtered by reference with an FES 2.0 PropertyIsEqualTo. Field names: the layer as described in
// the shared research (cee-registries.md) and peers' notes: `ref_referencia` (20), `ref_parcela`
// (14), `cer_concalificacion` / `cer_emicalificacion` (A-G), `codigo`, `idcertificado`, `validohasta`.
import type { CertificateScope } from "@/lib/domain";
import { bareReference as bare, isoDate, ratingLetter } from "@/lib/enrichment/sources/registries/fields";
import { registryCertificate } from "@/lib/enrichment/sources/registries/fields";
import { foundCertificate, noCertificate } from "@/lib/enrichment/sources/registries/rows";
import { wfsFeatures } from "@/lib/enrichment/sources/registries/wfs";
import type { LiveProvider } from "@/lib/enrichment/sources/types";
import type { CertificateClient } from "../register";

export const VALENCIA_BASE_URL = "https://terramapas.icv.gva.es/26_GCEE";
export const VALENCIA_REGISTRY = "GVA GCEE WFS";
export const VALENCIA_PROVIDER: LiveProvider = "gva-wfs";

export interface ValenciaProperties {
  /** Certificate code, e.g. `E2016VS069634`. */
  codigo?: string;
  idcertificado?: string | number;
  ref_referencia?: string;
  ref_parcela?: string;
  /** Non-renewable primary energy class. */
  cer_concalificacion?: string;
  cer_emicalificacion?: string;
  validohasta?: string;
  [field: string]: unknown;
}

/** Certificates whose `property` equals `value` (`ref_referencia` for a unit, `ref_parcela` for a parcel). */
export function valenciaFeatures(
  base: string,
  property: "ref_referencia" | "ref_parcela",
  value: string,
  timeoutMs: number,
): Promise<ValenciaProperties[]> {
  return wfsFeatures<ValenciaProperties>(base, "ms:CEEEdificios", property, value, timeoutMs);
}

/**
 * GVA's layer gives the consumption and emissions letters and totals (comma decimals) and the end
 * of validity, not the issue date (validity is 10 years, but renewals and earlier rules make "minus
 * ten years" a guess, so no issue date is derived).
 */
const certificate = (p: ValenciaProperties, scope: CertificateScope) =>
  registryCertificate(
    {
      rating: p.cer_concalificacion,
      emissionsRating: p.cer_emicalificacion,
      primaryEnergy: p.cer_contotal,
      emissions: p.cer_emitotal,
      validUntil: p.validohasta,
      certificateId: p.codigo ?? p.idcertificado,
    },
    scope,
    VALENCIA_REGISTRY,
  );

/** Newest first by end of validity (the WFS has no documented order). */
const newestFirst = (a: ValenciaProperties, b: ValenciaProperties) =>
  (isoDate(b.validohasta) ?? "").localeCompare(isoDate(a.validohasta) ?? "");

export const valenciaCertificates = (base: string): CertificateClient => ({
  provider: VALENCIA_PROVIDER,
  async lookup({ unit, parcel }, timeoutMs) {
    let unusable = 0;
    if (unit) {
      const features = (await valenciaFeatures(base, "ref_referencia", unit, timeoutMs)).sort(newestFirst);
      const p = features.find((f) => ratingLetter(f.cer_concalificacion));
      if (p) return foundCertificate(VALENCIA_PROVIDER, certificate(p, "unit"), "unit");
      unusable += features.length;
    }
    const features = (await valenciaFeatures(base, "ref_parcela", parcel, timeoutMs)).sort(newestFirst);
    // The building's own certificate: assumed to carry the parcel, or nothing, as its unit reference
    // (no real answer of the layer has been seen; see the live fixtures' README).
    const own = features.filter((f) => [parcel, ""].includes(bare(f.ref_referencia)));
    const p = own.find((f) => ratingLetter(f.cer_concalificacion));
    if (p) return foundCertificate(VALENCIA_PROVIDER, certificate(p, "building"), "building");
    return noCertificate(VALENCIA_PROVIDER, VALENCIA_REGISTRY, unusable + own.length);
  },
});
