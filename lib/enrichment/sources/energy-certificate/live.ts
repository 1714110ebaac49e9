// Live certificate lookup in the regional registries that can be queried by reference: Catalonia
// (ICAEN, Socrata) and the Comunitat Valenciana (GVA, WFS). The other regions publish bulk files
// or nothing (shared research, cee-registries.md): `not_found` at once, without a request, so the
// pipeline estimates the rating.
//
// What counts as the property's certificate: the newest one registered under its unit reference;
// failing that, one registered under the bare 14-character parcel (a certificate of the whole
// building). A certificate of another unit of the building is not this property's. A record whose
// letter is not A-G is no usable certificate.
import type { EnergyCertificateSource, RegistryCertificate } from "../types";
import { liveClient, type LiveClientOptions, type Outcome } from "../http";
import { CATALONIA_BASE_URL, CATALONIA_PROVINCES, CATALONIA_REGISTRY, cataloniaRows, type CataloniaRow } from "../registries/catalonia";
import { bareReference as bare, isoDate, ratingLetter } from "../registries/fields";
import { VALENCIA_BASE_URL, VALENCIA_PROVINCES, VALENCIA_REGISTRY, valenciaFeatures, type ValenciaProperties } from "../registries/valencia";

export interface LiveEnergyCertificateOptions extends LiveClientOptions {
  /** Socrata host of the Catalan dataset. Default: analisi.transparenciacatalunya.cat. */
  cataloniaBaseUrl?: string;
  /** The GVA WFS endpoint. Default: terramapas.icv.gva.es/26_GCEE. */
  valenciaBaseUrl?: string;
}

type Scope = "unit" | "building";

const compact = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== "")) as T;

function fromCatalonia(row: CataloniaRow, scope: Scope): RegistryCertificate {
  return compact({
    rating: ratingLetter(row.qualificaci_de_consum_d)!,
    source: "registry" as const,
    registry: CATALONIA_REGISTRY,
    certificate_id: typeof row.num_cas === "string" ? row.num_cas.trim() : undefined,
    // The dataset dates a certificate by its entry in the registry.
    issued_on: isoDate(row.data_entrada) ?? undefined,
    emissions_rating: ratingLetter(row.qualificacio_d_emissions) ?? undefined,
    scope,
  });
}

function fromValencia(p: ValenciaProperties, scope: Scope): RegistryCertificate {
  const id = p.codigo ?? p.idcertificado;
  return compact({
    rating: ratingLetter(p.cer_concalificacion)!,
    source: "registry" as const,
    registry: VALENCIA_REGISTRY,
    certificate_id: id === undefined || id === null ? undefined : String(id).trim(),
    // The layer gives the end of validity, not the issue date (validity is 10 years, but renewals
    // and earlier rules make "minus ten years" a guess, so no issue date is derived).
    valid_until: isoDate(p.validohasta) ?? undefined,
    emissions_rating: ratingLetter(p.cer_emicalificacion) ?? undefined,
    scope,
  });
}

const notFound = (registry: string, unusable: number): Outcome<never> => ({
  kind: "not_found",
  summary: compact({ registry, unusable_records: unusable || undefined }),
});

async function catalonia(base: string, unit: string | null, parcel: string, timeoutMs: number): Promise<Outcome<RegistryCertificate>> {
  let unusable = 0;
  for (const [reference, scope] of [[unit, "unit"], [parcel, "building"]] as const) {
    if (!reference) continue;
    const rows = await cataloniaRows(base, reference, timeoutMs);
    const row = rows.find((r) => ratingLetter(r.qualificaci_de_consum_d));
    if (row) return { kind: "found", data: fromCatalonia(row, scope), summary: { registry: CATALONIA_REGISTRY, scope } };
    unusable += rows.length;
  }
  return notFound(CATALONIA_REGISTRY, unusable);
}

/** Newest first by end of validity (the WFS has no documented order). */
const newestFirst = (a: ValenciaProperties, b: ValenciaProperties) => (isoDate(b.validohasta) ?? "").localeCompare(isoDate(a.validohasta) ?? "");

async function valencia(base: string, unit: string | null, parcel: string, timeoutMs: number): Promise<Outcome<RegistryCertificate>> {
  let unusable = 0;
  if (unit) {
    const features = (await valenciaFeatures(base, "ref_referencia", unit, timeoutMs)).sort(newestFirst);
    const p = features.find((f) => ratingLetter(f.cer_concalificacion));
    if (p) return { kind: "found", data: fromValencia(p, "unit"), summary: { registry: VALENCIA_REGISTRY, scope: "unit" } };
    unusable += features.length;
  }
  const features = (await valenciaFeatures(base, "ref_parcela", parcel, timeoutMs)).sort(newestFirst);
  // The building's own certificate: assumed to carry the parcel, or nothing, as its unit reference
  // (no real answer of the layer has been seen; see ../registries/fixtures/README.md).
  const own = features.filter((f) => [parcel, ""].includes(bare(f.ref_referencia)));
  const p = own.find((f) => ratingLetter(f.cer_concalificacion));
  if (p) return { kind: "found", data: fromValencia(p, "building"), summary: { registry: VALENCIA_REGISTRY, scope: "building" } };
  return notFound(VALENCIA_REGISTRY, unusable + own.length);
}

export function createLiveEnergyCertificate(options: LiveEnergyCertificateOptions = {}): EnergyCertificateSource {
  const { timeoutMs, lookup } = liveClient(options);
  const cataloniaBase = options.cataloniaBaseUrl ?? CATALONIA_BASE_URL;
  const valenciaBase = options.valenciaBaseUrl ?? VALENCIA_BASE_URL;
  return {
    async lookup({ reference, facts, signal }) {
      const parcel = reference.slice(0, 14);
      // The unit's 20 characters: as registered, or as the cadastre resolved a one-unit parcel.
      const unit = [reference, facts.reference].find((r) => r.length === 20 && r.startsWith(parcel)) ?? null;
      const key = unit ?? parcel;
      const province = facts.provinceCode ?? "";
      if (CATALONIA_PROVINCES.has(province)) return lookup(`cee:cat:${key}`, signal, () => catalonia(cataloniaBase, unit, parcel, timeoutMs));
      if (VALENCIA_PROVINCES.has(province)) return lookup(`cee:val:${key}`, signal, () => valencia(valenciaBase, unit, parcel, timeoutMs));
      return { kind: "not_found", summary: { reason: "no_registry_for_region", province: facts.provinceCode } };
    },
  };
}
