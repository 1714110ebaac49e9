// The Comunitat Valenciana's register of building assessments (IEE.CV, Decreto 53/2018): GVA WFS
// `terramapas.icv.gva.es/0801_GESIEE`, layer `ms:GESIEE.Informes`, one feature per report, keyed by
// the parcel (`inf_refcatastral`, 14 characters). Fields as a peer's notes list them from the live
// layer (a bbox query answered `inf_refcatastral`, `inf_numieevcv` such as
// `IEE/U/2023/03/082/0000498`, `fecha_caducidad`, `count_intu`, `estado_intu` such as
// `INTu sin ejecutar`, `evaluado`, `consumoletra`, `emisionesletra`, `urlgesie`); a peer's client
// filters the same layer on `inf_refcatastral`. Licence CC BY 4.0 Generalitat (its capabilities).
import { isoDate } from "@/lib/enrichment/sources/registries/fields";
import { wfsFeatures } from "@/lib/enrichment/sources/registries/wfs";
import type { IteFinding, LiveProvider, SourceOutcome } from "@/lib/enrichment/sources/types";
import type { InspectionClient } from "../register";

export const GESIEE_BASE_URL = "https://terramapas.icv.gva.es/0801_GESIEE";
export const GESIEE_REGISTRY = "GVA GESIEE (IEE.CV)";
export const GESIEE_PROVIDER: LiveProvider = "gva-gesiee";

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
  return wfsFeatures<GesieeReport>(base, "ms:GESIEE.Informes", "inf_refcatastral", parcel, timeoutMs);
}

/** Newest first by expiry (the layer has no documented order). */
const newestReport = (a: GesieeReport, b: GesieeReport) =>
  (isoDate(b.fecha_caducidad) ?? "").localeCompare(isoDate(a.fecha_caducidad) ?? "");

/**
 * The newest report of the parcel is `found`, with its number and the date it expires (the next one
 * is due); urgent interventions not carried out make the result `unfavourable`; no report is `not_found`.
 */
export const gesieeInspections = (base: string): InspectionClient => ({
  provider: GESIEE_PROVIDER,
  async lookup({ parcel }, timeoutMs): Promise<SourceOutcome<IteFinding>> {
    const [report] = (await gesieeReports(base, parcel, timeoutMs)).sort(newestReport);
    if (!report) return { kind: "not_found", provider: GESIEE_PROVIDER, summary: { registry: GESIEE_REGISTRY } };
    const urgent = Number(report.count_intu);
    const pending = Number.isFinite(urgent) && urgent > 0 && /sin ejecutar/i.test(report.estado_intu ?? "");
    return {
      kind: "found",
      data: {
        status: "found",
        registry: GESIEE_REGISTRY,
        reference: typeof report.inf_numieevcv === "string" ? report.inf_numieevcv.trim() || null : null,
        nextDueOn: isoDate(report.fecha_caducidad),
        result: pending ? "unfavourable" : null,
      },
      provider: GESIEE_PROVIDER,
      summary: {
        registry: GESIEE_REGISTRY,
        urgent_interventions: report.count_intu ?? null,
        urgent_state: report.estado_intu ?? null,
        assessed: report.evaluado ?? null,
      },
    };
  },
});
