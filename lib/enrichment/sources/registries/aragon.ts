// Aragón's register of energy certificates, view 237 of GA_OD_Core (opendata.aragon.es), asked by
// reference. The API (aragonopendata/ga-od-core-v2, src/gaodcore/views.py) takes `resource_id`,
// `formato`, `filters` (JSON, equality), `like` (JSON, a case-insensitive "contains":
// connectors.py `_process_like_filter`), `sort` and `limit`, and answers JSON as an array of row
// objects (utils.get_return_list). Column names: NBEM's Aragón script, which downloads the same view.
import { getText, parseJson, UpstreamError } from "../http";

export const ARAGON_BASE_URL = "https://opendata.aragon.es";
export const ARAGON_PROVINCES: ReadonlySet<string> = new Set(["22", "44", "50"]);
export const ARAGON_REGISTRY = "Gobierno de Aragón (GA_OD_Core 237)";
const VIEW = "237";

export interface AragonRow {
  refcatastral?: string | null;
  /** Non-renewable primary energy letter: the label's headline. */
  clasificacion_consumo?: string | null;
  /** kWh/m²·year, written with its unit ("123.4 kWh/m2 año"). */
  consumo_ener?: string | number | null;
  clasificacion_emisiones?: string | null;
  /** kgCO2/m²·year, with its unit. */
  emision_co?: string | number | null;
  fec_emision?: string | null;
  numcert?: string | number | null;
  [column: string]: unknown;
}

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
export async function aragonRows({ base, timeoutMs }: AragonClient, match: "contains" | "equals", reference: string): Promise<AragonRow[]> {
  const condition = JSON.stringify({ refcatastral: reference });
  const params = new URLSearchParams({ resource_id: VIEW, formato: "json", [match === "contains" ? "like" : "filters"]: condition, sort: "fec_emision desc", limit: String(ROWS) });
  const rows = parseJson(await getText(`${base.replace(/\/+$/, "")}/GA_OD_Core/download?${params}`, { timeoutMs }));
  if (!Array.isArray(rows) || rows.some((r) => typeof r !== "object" || r === null)) throw new UpstreamError("malformed", "the GA_OD_Core answer is not an array of rows");
  return rows as AragonRow[];
}
