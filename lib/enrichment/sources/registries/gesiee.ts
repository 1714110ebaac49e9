// The Comunitat Valenciana's register of building assessments (IEE.CV, Decreto 53/2018): GVA WFS
// `terramapas.icv.gva.es/0801_GESIEE`, layer `ms:GESIEE.Informes`, one feature per report, keyed by
// the parcel (`inf_refcatastral`, 14 characters). Fields as a peer's notes list them from the live
// layer (a bbox query answered `inf_refcatastral`, `inf_numieevcv` such as
// `IEE/U/2023/03/082/0000498`, `fecha_caducidad`, `count_intu`, `estado_intu` such as
// `INTu sin ejecutar`, `evaluado`, `consumoletra`, `emisionesletra`, `urlgesie`); a peer's client
// filters the same layer on `inf_refcatastral`. Licence CC BY 4.0 Generalitat (its capabilities).
import { gvaFeatures } from "./valencia";

export const GESIEE_BASE_URL = "https://terramapas.icv.gva.es/0801_GESIEE";
export const GESIEE_REGISTRY = "GVA GESIEE (IEE.CV)";

export interface GesieeReport {
  inf_refcatastral?: string;
  /** Report number, e.g. `IEE/U/2023/03/082/0000498`. */
  inf_numieevcv?: string;
  /** When the report stops being valid: the next assessment is due. */
  fecha_caducidad?: string;
  /** Urgent interventions (INTu) the report found, and whether they were carried out. */
  count_intu?: number | string;
  estado_intu?: string;
  evaluado?: string;
  [field: string]: unknown;
}

/** The assessment reports of one parcel. */
export function gesieeReports(base: string, parcel: string, timeoutMs: number): Promise<GesieeReport[]> {
  return gvaFeatures<GesieeReport>(base, "ms:GESIEE.Informes", "inf_refcatastral", parcel, timeoutMs);
}
