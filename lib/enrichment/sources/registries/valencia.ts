// Generalitat Valenciana's CEE registry, WFS layer `ms:CEEEdificios`, filtered by reference.
import { getText, parseJson, UpstreamError } from "../http";

export const VALENCIA_BASE_URL = "https://terramapas.icv.gva.es/26_GCEE";
export const VALENCIA_PROVINCES = new Set(["03", "12", "46"]);

export interface ValenciaFeature {
  id?: string;
  properties?: { ref_referencia?: string; ref_parcela?: string; cer_concalificacion?: string; validohasta?: string; [k: string]: unknown };
}

function filter(property: string, value: string): string {
  const literal = value.replace(/[<>&'"]/g, "");
  return `<fes:Filter xmlns:fes="http://www.opengis.net/fes/2.0"><fes:PropertyIsEqualTo><fes:ValueReference>${property}</fes:ValueReference><fes:Literal>${literal}</fes:Literal></fes:PropertyIsEqualTo></fes:Filter>`;
}

export async function valenciaFeature(base: string, reference: string, timeoutMs: number): Promise<{ feature: ValenciaFeature; scope: "unit" | "building" } | null> {
  const query = async (property: string, value: string) => {
    const params = new URLSearchParams({
      service: "WFS",
      version: "2.0.0",
      request: "GetFeature",
      typeNames: "ms:CEEEdificios",
      outputFormat: "application/json; subtype=geojson",
      count: "1",
      FILTER: filter(property, value),
    });
    const { text } = await getText(`${base.replace(/\/$/, "")}?${params}`, { timeoutMs, signal: new AbortController().signal, accept: "application/json" });
    // WFS reports request errors as an XML ExceptionReport, sometimes with HTTP 200.
    if (/^\s*</.test(text)) throw new UpstreamError("wfs_exception", text.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim().slice(0, 160));
    const body = parseJson(text) as { features?: ValenciaFeature[] };
    if (!Array.isArray(body?.features)) throw new UpstreamError("malformed", "WFS answer has no features array");
    return body.features[0] ?? null;
  };
  if (reference.length === 20) {
    const unit = await query("ref_referencia", reference);
    if (unit) return { feature: unit, scope: "unit" };
  }
  const building = await query("ref_parcela", reference.slice(0, 14));
  return building ? { feature: building, scope: "building" } : null;
}
