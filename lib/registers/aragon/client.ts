// Aragón's register of energy certificates, view 237 of GA_OD_Core (opendata.aragon.es), asked by
// reference. The API (aragonopendata/ga-od-core-v2, src/gaodcore/views.py) takes `resource_id`,
// `formato`, `filters` (JSON, equality), `like` (JSON, a case-insensitive "contains":
// connectors.py `_process_like_filter`), `sort` and `limit`, and answers JSON as an array of row
// objects (utils.get_return_list). The columns are the view's, the same in the JSON answer and in
// the CSV and XLSX downloads the register index imports (ARAGON_COLUMNS serves both).
import { getText, parseJson, UpstreamError } from "@/lib/enrichment/sources/http";
import { certificateValues, registryCertificate } from "@/lib/enrichment/sources/registries/fields";
import type { CertificateColumns } from "@/lib/enrichment/sources/registries/fields";
import { unitThenBuilding } from "@/lib/enrichment/sources/registries/rows";
import type { LiveProvider } from "@/lib/enrichment/sources/types";
import type { CertificateClient } from "../register";

export const ARAGON_BASE_URL = "https://opendata.aragon.es";
export const ARAGON_REGISTRY = "Gobierno de Aragón (GA_OD_Core 237)";
export const ARAGON_PROVIDER: LiveProvider = "aragon-gaodcore";
const VIEW = "237";

/**
 * View 237's columns for the certificate (16 in all; the others are building type and state, year,
 * surface, municipality, province, address and coordinates). The figures carry their unit after a
 * decimal comma ("142,33 kWh/m2 año"), "-" stands for no letter and dates read "2019-05-10 0:00".
 * Evidence: NBEM's Aragón script and independent public analyses of the downloaded view.
 */
export const ARAGON_COLUMNS = {
  reference: "refcatastral",
  certificateId: "numcert",
  issuedOn: "fec_emision",
  validUntil: "fec_expira",
  emissions: "emision_co",
  emissionsRating: "clasificacion_emisiones",
  primaryEnergy: "consumo_ener",
  rating: "clasificacion_consumo",
} as const satisfies CertificateColumns & { reference: string };

export type AragonRow = Readonly<Record<string, unknown>>;
const isRow = (row: unknown): row is AragonRow => typeof row === "object" && row !== null;

export interface AragonClient {
  base: string;
  timeoutMs: number;
}

/** Renewals are few: the newest few rows, in case the newest has no valid letter. */
const ROWS = 5;

/**
 * Certificates newest first: `contains` a unit's first 18 characters (so a field naming several
 * units, or a typo in the check letters, still matches), or `equals` a bare parcel (the building's
 * own certificate, not its units').
 */
export async function aragonRows(
  { base, timeoutMs }: AragonClient,
  match: "contains" | "equals",
  reference: string,
): Promise<AragonRow[]> {
  const condition = JSON.stringify({ [ARAGON_COLUMNS.reference]: reference });
  const params = new URLSearchParams({
    resource_id: VIEW,
    formato: "json",
    [match === "contains" ? "like" : "filters"]: condition,
    sort: `${ARAGON_COLUMNS.issuedOn} desc`,
    limit: String(ROWS),
  });
  const rows = parseJson(await getText(`${base.replace(/\/+$/, "")}/GA_OD_Core/download?${params}`, { timeoutMs }));
  if (!Array.isArray(rows) || !rows.every(isRow))
    throw new UpstreamError("malformed", "the GA_OD_Core answer is not an array of rows");
  return rows;
}

/** Both letters, the figures written with their unit, issue and expiry, the certificate number. */
const ROWS_READ = {
  provider: ARAGON_PROVIDER,
  registry: ARAGON_REGISTRY,
  letter: (r: AragonRow) => r[ARAGON_COLUMNS.rating],
  certificate: (row: AragonRow, scope: "unit" | "building") =>
    registryCertificate(certificateValues(row, ARAGON_COLUMNS), scope, ARAGON_REGISTRY),
};

export const aragonCertificates = (base: string): CertificateClient => ({
  provider: ARAGON_PROVIDER,
  lookup({ unit, parcel }, timeoutMs) {
    const client = { base, timeoutMs };
    return unitThenBuilding(ROWS_READ, [
      ["unit", unit ? () => aragonRows(client, "contains", unit.slice(0, 18)) : null],
      ["building", () => aragonRows(client, "equals", parcel)],
    ]);
  },
});
