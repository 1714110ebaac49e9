// WFS 2.0 layers filtered by one property (the GVA's registers are published so): an FES 2.0
// PropertyIsEqualTo, GeoJSON out, and the XML ExceptionReport a bad request gets read as an error.
import { getText, parseJson, UpstreamError } from "../http";

/** Enough features to see a parcel's units and its own certificate. */
export const MAX_FEATURES = 50;

const xml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** Properties of the features of a WFS layer whose `property` equals `value` (FES 2.0, GeoJSON out). */
export async function wfsFeatures<P>(
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
