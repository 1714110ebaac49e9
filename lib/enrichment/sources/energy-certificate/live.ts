// Live certificate lookup in the regional registries that can be queried by reference: Catalonia
// (ICAEN, Socrata), the Comunitat Valenciana (GVA, WFS) and Aragón (GA_OD_Core). Which provinces
// each answers is the region table's (lib/registers/regions.ts, passed in as `routes`); elsewhere
// the answer is `not_found` at once, without a request, so the pipeline estimates the rating.
//
// What counts as the property's certificate: the newest one registered under its unit reference;
// failing that, one registered under the bare 14-character parcel (a certificate of the whole
// building). A certificate of another unit of the building is not this property's. A record whose
// letter is not A-G is no usable certificate.
import type { CertificateScope } from "@/lib/domain";
import {
  PROVIDERS,
  type EnergyCertificateSource,
  type LiveRoutes,
  type Provider,
  type RegistryCertificate,
} from "../types";
import { liveClient, type LiveClientOptions, type Outcome } from "../http";
import { ARAGON_BASE_URL, ARAGON_COLUMNS, ARAGON_REGISTRY, aragonRows } from "../registries/aragon";
import type { AragonClient, AragonRow } from "../registries/aragon";
import { CATALONIA_BASE_URL, CATALONIA_REGISTRY, cataloniaRows } from "../registries/catalonia";
import type { CataloniaClient, CataloniaRow } from "../registries/catalonia";
import { bareReference as bare, certificateValues, isoDate, propertyUnit, ratingLetter } from "../registries/fields";
import { registryCertificate } from "../registries/fields";
import { VALENCIA_BASE_URL, VALENCIA_REGISTRY, valenciaFeatures } from "../registries/valencia";
import type { ValenciaProperties } from "../registries/valencia";

export interface LiveEnergyCertificateOptions extends LiveClientOptions {
  /** Socrata host of the Catalan dataset. Default: analisi.transparenciacatalunya.cat. */
  cataloniaBaseUrl?: string;
  /** The GVA WFS endpoint. Default: terramapas.icv.gva.es/26_GCEE. */
  valenciaBaseUrl?: string;
  /** Socrata app token for the Catalan dataset (SOCRATA_APP_TOKEN). */
  socrataAppToken?: string;
  /** GA_OD_Core host of Aragón's view. Default: opendata.aragon.es. */
  aragonBaseUrl?: string;
  /** Province → the provider that answers there (the region table's). */
  routes: LiveRoutes["energyCertificate"];
}

/**
 * ICAEN's columns: the consumption letter, non-renewable primary energy (kWh/m²·year), the global
 * CO2 letter and kgCO2/m²·year (`qualificaci_emissions` is only the heating one), the registration
 * date (the dataset's only date: "Data d'inscripció al registre" in ICAEN's dictionary, no issue
 * date, so validity stays unknown) and the procedure number.
 */
const fromCatalonia = (row: CataloniaRow, scope: CertificateScope) =>
  registryCertificate(
    {
      rating: row.qualificaci_de_consum_d,
      emissionsRating: row.qualificacio_d_emissions,
      primaryEnergy: row.energia_prim_ria_no_renovable,
      emissions: row.emissions_de_co2,
      registeredOn: row.data_entrada,
      certificateId: row.num_cas,
    },
    scope,
    CATALONIA_REGISTRY,
  );

/**
 * GVA's layer gives the consumption and emissions letters and totals (comma decimals) and the end
 * of validity, not the issue date (validity is 10 years, but renewals and earlier rules make "minus
 * ten years" a guess, so no issue date is derived).
 */
const fromValencia = (p: ValenciaProperties, scope: CertificateScope) =>
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

/** Aragón's view: both letters, the figures written with their unit, issue and expiry, the certificate number. */
const fromAragon = (row: AragonRow, scope: CertificateScope) =>
  registryCertificate(certificateValues(row, ARAGON_COLUMNS), scope, ARAGON_REGISTRY);

const notFound = (provider: Provider, registry: string, unusable: number): Outcome<never> => ({
  kind: "not_found",
  provider,
  summary: { registry, ...(unusable ? { unusable_records: unusable } : {}) },
});

/** How one registry's rows read: its provider and registry label, its headline letter, its certificate. */
interface RowRegistry<R> {
  provider: Provider;
  registry: string;
  letter: (row: R) => unknown;
  certificate: (row: R, scope: CertificateScope) => RegistryCertificate;
}

/**
 * The unit's rows, else the building's (a null ask is skipped), each newest first: the first row
 * with an A-G letter is the certificate; rows without one are counted in the not_found summary.
 */
async function unitThenBuilding<R>(
  registry: RowRegistry<R>,
  asks: readonly (readonly [CertificateScope, (() => Promise<R[]>) | null])[],
): Promise<Outcome<RegistryCertificate>> {
  let unusable = 0;
  for (const [scope, ask] of asks) {
    if (!ask) continue;
    const rows = await ask();
    const row = rows.find((r) => ratingLetter(registry.letter(r)));
    if (row)
      return {
        kind: "found",
        data: registry.certificate(row, scope),
        provider: registry.provider,
        summary: { registry: registry.registry, scope },
      };
    unusable += rows.length;
  }
  return notFound(registry.provider, registry.registry, unusable);
}

const CATALONIA: RowRegistry<CataloniaRow> = {
  provider: PROVIDERS.catalonia,
  registry: CATALONIA_REGISTRY,
  letter: (r) => r.qualificaci_de_consum_d,
  certificate: fromCatalonia,
};
const ARAGON: RowRegistry<AragonRow> = {
  provider: PROVIDERS.aragon,
  registry: ARAGON_REGISTRY,
  letter: (r) => r[ARAGON_COLUMNS.rating],
  certificate: fromAragon,
};

const catalonia = (client: CataloniaClient, unit: string | null, parcel: string) =>
  unitThenBuilding(CATALONIA, [
    ["unit", unit ? () => cataloniaRows(client, unit) : null],
    ["building", () => cataloniaRows(client, parcel)],
  ]);

const aragon = (client: AragonClient, unit: string | null, parcel: string) =>
  unitThenBuilding(ARAGON, [
    ["unit", unit ? () => aragonRows(client, "contains", unit.slice(0, 18)) : null],
    ["building", () => aragonRows(client, "equals", parcel)],
  ]);

/** Newest first by end of validity (the WFS has no documented order). */
const newestFirst = (a: ValenciaProperties, b: ValenciaProperties) =>
  (isoDate(b.validohasta) ?? "").localeCompare(isoDate(a.validohasta) ?? "");

async function valencia(
  base: string,
  unit: string | null,
  parcel: string,
  timeoutMs: number,
): Promise<Outcome<RegistryCertificate>> {
  let unusable = 0;
  if (unit) {
    const features = (await valenciaFeatures(base, "ref_referencia", unit, timeoutMs)).sort(newestFirst);
    const p = features.find((f) => ratingLetter(f.cer_concalificacion));
    if (p)
      return {
        kind: "found",
        data: fromValencia(p, "unit"),
        provider: PROVIDERS.valencia,
        summary: { registry: VALENCIA_REGISTRY, scope: "unit" },
      };
    unusable += features.length;
  }
  const features = (await valenciaFeatures(base, "ref_parcela", parcel, timeoutMs)).sort(newestFirst);
  // The building's own certificate: assumed to carry the parcel, or nothing, as its unit reference
  // (no real answer of the layer has been seen; see ../registries/fixtures/README.md).
  const own = features.filter((f) => [parcel, ""].includes(bare(f.ref_referencia)));
  const p = own.find((f) => ratingLetter(f.cer_concalificacion));
  if (p)
    return {
      kind: "found",
      data: fromValencia(p, "building"),
      provider: PROVIDERS.valencia,
      summary: { registry: VALENCIA_REGISTRY, scope: "building" },
    };
  return notFound(PROVIDERS.valencia, VALENCIA_REGISTRY, unusable + own.length);
}

export function createLiveEnergyCertificate(options: LiveEnergyCertificateOptions): EnergyCertificateSource {
  const { timeoutMs, ask } = liveClient(options);
  const cataloniaClient: CataloniaClient = {
    base: options.cataloniaBaseUrl ?? CATALONIA_BASE_URL,
    timeoutMs,
    appToken: options.socrataAppToken,
  };
  const valenciaBase = options.valenciaBaseUrl ?? VALENCIA_BASE_URL;
  const aragonClient: AragonClient = { base: options.aragonBaseUrl ?? ARAGON_BASE_URL, timeoutMs };
  /** Each provider's lookup of a unit (or null) and its parcel. */
  const clients: Record<string, (unit: string | null, parcel: string) => Promise<Outcome<RegistryCertificate>>> = {
    [PROVIDERS.catalonia]: (unit, parcel) => catalonia(cataloniaClient, unit, parcel),
    [PROVIDERS.valencia]: (unit, parcel) => valencia(valenciaBase, unit, parcel, timeoutMs),
    [PROVIDERS.aragon]: (unit, parcel) => aragon(aragonClient, unit, parcel),
  };
  const unknown = [...new Set(options.routes.values())].filter((p) => !Object.hasOwn(clients, p));
  if (unknown.length) throw new Error(`no live certificate client for ${unknown.join(", ")}`);
  return {
    async lookup(input) {
      const { reference, facts } = input;
      const parcel = reference.slice(0, 14);
      const unit = propertyUnit(reference, facts.reference);
      const provider = options.routes.get(facts.provinceCode ?? "");
      if (!provider) {
        const summary = { reason: "no_registry_for_region", province: facts.provinceCode };
        return { kind: "not_found", provider: PROVIDERS.estimate, summary };
      }
      return ask(`cee:${provider}:${unit ?? parcel}`, input, provider, () => clients[provider]!(unit, parcel));
    },
  };
}
