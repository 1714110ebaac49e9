// Generalitat Valenciana's CEE registry, WFS layer `ms:CEEEdificios` (terramapas.icv.gva.es/26_GCEE),
// filtered by reference with an FES 2.0 PropertyIsEqualTo. Field names: the layer as described in
// the shared research (cee-registries.md) and peers' notes: `ref_referencia` (20), `ref_parcela`
// (14), `cer_concalificacion` / `cer_emicalificacion` (A-G), `codigo`, `idcertificado`, `validohasta`.
import { getText, parseJson, UpstreamError } from "../http";

export const VALENCIA_BASE_URL = "https://terramapas.icv.gva.es/26_GCEE";
export const VALENCIA_REGISTRY = "GVA GCEE WFS";

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

/** Enough features to see a parcel's units and its own certificate. */
export const MAX_FEATURES = 50;

const xml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** Properties of the features of a GVA WFS layer whose `property` equals `value` (FES 2.0, GeoJSON out). */
export async function gvaFeatures<P>(
  base: string,
  typeName: string,
  property: string,
  value: string,
  timeoutMs: number,
): Promise<P[]> {
  const filter = `<fes:Filter xmlns:fes="http://www.opengis.net/fes/2.0"><fes:PropertyIsEqualTo><fes:ValueReference>${property}</fes:ValueReference><fes:Literal>${xml(value)}</fes:Literal></fes:PropertyIsEqualTo></fes:Filter>`;
  const params = new URLSearchParams({
    service: "WFS",
    version: "2.0.0",
    request: "GetFeature",
    typeNames: typeName,
    outputFormat: "application/json; subtype=geojson",
    count: String(MAX_FEATURES),
    FILTER: filter,
  });
  const text = await getText(`${base.replace(/\/+$/, "")}?${params}`, { timeoutMs });
  // WFS reports a bad request as an XML ExceptionReport, sometimes with HTTP 200.
  if (/^\s*</.test(text))
    throw new UpstreamError(
      "wfs_exception",
      text
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim()
        .slice(0, 160),
    );
  const body = parseJson(text) as { features?: unknown };
  if (!Array.isArray(body?.features)) throw new UpstreamError("malformed", "the WFS answer has no features array");
  return body.features.map((f) => ((f as { properties?: P } | null)?.properties ?? {}) as P);
}

/** Certificates whose `property` equals `value` (`ref_referencia` for a unit, `ref_parcela` for a parcel). */
export function valenciaFeatures(
  base: string,
  property: "ref_referencia" | "ref_parcela",
  value: string,
  timeoutMs: number,
): Promise<ValenciaProperties[]> {
  return gvaFeatures<ValenciaProperties>(base, "ms:CEEEdificios", property, value, timeoutMs);
}
