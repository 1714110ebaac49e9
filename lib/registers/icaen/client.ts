// ICAEN's open CEE dataset (Socrata `j6ii-t3w2` on analisi.transparenciacatalunya.cat), queried by
// cadastral reference: certificates for the energy rating, and the IITE code (`informe_ins_tecnica_edifici`)
// that evidences a technical inspection of the building. Field names: the dataset's dictionary
// (see shared research, cee-registries.md); Socrata leaves empty fields out of a JSON row.
import type { CertificateScope } from "@/lib/domain";
import { getText, parseJson, UpstreamError } from "@/lib/enrichment/sources/http";
import { isoDate, registryCertificate } from "@/lib/enrichment/sources/registries/fields";
import { unitThenBuilding } from "@/lib/enrichment/sources/registries/rows";
import { appTokenHeader } from "@/lib/enrichment/sources/registries/socrata";
import type { IteFinding, LiveProvider, SourceOutcome } from "@/lib/enrichment/sources/types";
import type { CertificateClient, InspectionClient } from "../register";

export const CATALONIA_BASE_URL = "https://analisi.transparenciacatalunya.cat";
export const CATALONIA_REGISTRY = "ICAEN (j6ii-t3w2)";
export const CATALONIA_PROVIDER: LiveProvider = "icaen-socrata";

export interface CataloniaRow {
  /** The procedure number of the certificate. */
  num_cas?: string;
  referencia_cadastral?: string;
  /** Date of entry in the registry (floating timestamp, `2019-05-10T00:00:00.000`). */
  data_entrada?: string;
  /** Non-renewable primary energy class: the headline letter of the label. */
  qualificaci_de_consum_d?: string;
  /** CO2 emissions class (`qualificaci_emissions` is only the heating one). */
  qualificacio_d_emissions?: string;
  informe_ins_tecnica_edifici?: string;
  [field: string]: unknown;
}

/** A reference has few certificates (renewals); the newest few, in case the newest has no valid letter. */
const ROWS = 5;

const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Where and how to ask: the Socrata host, the answer timeout, and the app token if configured. */
export interface CataloniaClient {
  base: string;
  timeoutMs: number;
  appToken?: string;
}

async function query(
  { base, timeoutMs, appToken }: CataloniaClient,
  params: Record<string, string>,
): Promise<CataloniaRow[]> {
  const url = `${base.replace(/\/+$/, "")}/resource/j6ii-t3w2.json?${new URLSearchParams({ ...params, $order: "data_entrada DESC" })}`;
  const rows = parseJson(await getText(url, { timeoutMs, headers: appTokenHeader(appToken) }));
  if (!Array.isArray(rows) || rows.some((r) => typeof r !== "object" || r === null))
    throw new UpstreamError("malformed", "the Socrata answer is not an array of rows");
  return rows as CataloniaRow[];
}

/**
 * Certificates registered under exactly this reference, newest first: a unit's 20 characters, or
 * the 14 of a parcel, under which a certificate of the whole building is registered. An exact
 * match, not a prefix: the certificates of a parcel's units can outnumber one answer and push
 * the building's own out of it.
 */
export function cataloniaRows(client: CataloniaClient, reference: string): Promise<CataloniaRow[]> {
  return query(client, { referencia_cadastral: reference, $limit: String(ROWS) });
}

/** The newest certificate of the parcel or its units that carries an IITE code, or null. */
export async function cataloniaIiteRow(client: CataloniaClient, parcel: string): Promise<CataloniaRow | null> {
  const rows = await query(client, {
    $where: `starts_with(referencia_cadastral, ${literal(parcel)}) AND informe_ins_tecnica_edifici IS NOT NULL AND informe_ins_tecnica_edifici != ''`,
    $limit: "1",
  });
  return rows[0] ?? null;
}

/**
 * ICAEN's columns: the consumption letter, non-renewable primary energy (kWh/m²·year), the global
 * CO2 letter and kgCO2/m²·year (`qualificaci_emissions` is only the heating one), the registration
 * date (the dataset's only date: "Data d'inscripció al registre" in ICAEN's dictionary, no issue
 * date, so validity stays unknown) and the procedure number.
 */
const certificate = (row: CataloniaRow, scope: CertificateScope) =>
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

const ROWS_READ = {
  provider: CATALONIA_PROVIDER,
  registry: CATALONIA_REGISTRY,
  letter: (r: CataloniaRow) => r.qualificaci_de_consum_d,
  certificate,
};

/** The unit's certificates, else those registered under the bare parcel (the building's). */
export const cataloniaCertificates = (base: string, appToken: string | undefined): CertificateClient => ({
  provider: CATALONIA_PROVIDER,
  lookup({ unit, parcel }, timeoutMs) {
    const client = { base, timeoutMs, appToken };
    return unitThenBuilding(ROWS_READ, [
      ["unit", unit ? () => cataloniaRows(client, unit) : null],
      ["building", () => cataloniaRows(client, parcel)],
    ]);
  },
});

/**
 * The IITE code on any certificate of the parcel: evidence an inspection exists (the dataset gives
 * neither its date nor its result; the row's date is the energy certificate's, kept for operators
 * in the summary). No code is `not_found` here; Catalonia has no inspection register, so the
 * module declares it `holds: "codes"` and the answer becomes `unsupported` (the field is often empty).
 */
export const cataloniaInspections = (base: string, appToken: string | undefined): InspectionClient => ({
  provider: CATALONIA_PROVIDER,
  async lookup({ parcel }, timeoutMs): Promise<SourceOutcome<IteFinding>> {
    const row = await cataloniaIiteRow({ base, timeoutMs, appToken }, parcel);
    const code = typeof row?.informe_ins_tecnica_edifici === "string" ? row.informe_ins_tecnica_edifici.trim() : "";
    if (!code) return { kind: "not_found", provider: CATALONIA_PROVIDER, summary: { registry: CATALONIA_REGISTRY } };
    return {
      kind: "found",
      data: { status: "found", registry: CATALONIA_REGISTRY, reference: code },
      provider: CATALONIA_PROVIDER,
      summary: {
        registry: CATALONIA_REGISTRY,
        certificate_id: row?.num_cas ?? null,
        reported_on: isoDate(row?.data_entrada),
      },
    };
  },
});
