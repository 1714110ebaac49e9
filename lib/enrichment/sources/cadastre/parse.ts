// Parsing of Catastro OVC JSON answers, `Consulta_DNPRC` (facts by reference) and `Consulta_CPMRC`
// (the parcel's point), after the research notes and the recorded answers in ./fixtures. Errors
// arrive with HTTP 200 in `lerr`, classified by code and message (classifyCatastroError).
import type { Location } from "@/lib/domain";
import { allMunicipalities, municipalityByCatastroCode, provinceByCode } from "@/lib/reference-data";
import { PROVIDERS, type CadastreFacts, type SourceOutcome } from "../types";
import { UpstreamError } from "../http";

// The answer is untyped JSON: every field read below is optional and checked on use.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Json = Record<string, any>;

const str = (v: unknown) => (v === undefined || v === null || typeof v === "object" ? null : String(v).trim() || null);
const int = (v: unknown) => {
  const n = Number.parseInt(String(v ?? ""), 10);
  return Number.isFinite(n) ? n : null;
};
/** An area in whole square metres, as Catastro writes them; anything else (negative, zero, "1.234") is none. */
const area = (v: unknown) => {
  const s = String(v ?? "").trim();
  return /^\d+$/.test(s) && Number(s) > 0 ? Number(s) : null;
};

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "");

/** Every spelling of a bilingual official name ("Alicante/Alacant", "Castelló de la Plana"...), folded. */
const spellings = (name: string) => name.split("/").map(fold);

/** By names, the last resort: Catastro writes them upper case, mostly without accents. */
function ineByNames(municipality: string | null, province: string | null): string | null {
  if (!municipality) return null;
  const wanted = fold(municipality);
  const named = allMunicipalities().filter((m) => spellings(m.name).includes(wanted));
  // Narrow by province where its name matches ours; Catastro's spelling may differ ("BALEARES").
  const inProvince = province
    ? named.filter((m) => spellings(provinceByCode(m.provinceCode)?.name ?? "").includes(fold(province)))
    : [];
  const matches = inProvince.length ? inProvince : named;
  return matches.length === 1 ? matches[0]!.ine : null;
}

/**
 * INE codes: `loine` when present (no leading zeros: cp "28", cm "79" → 28079). Some answers
 * (trimmed ones, like the Godelleta fixture) lack it; then the Catastro code in the cartography
 * link (`del`, `mun`), then the names.
 */
function codes(
  dt: Json | undefined,
  igraf: string | null,
): { provinceCode: string | null; municipalityCode: string | null } {
  const cp = str(dt?.loine?.cp);
  const cm = str(dt?.loine?.cm);
  if (cp && cm && /^\d+$/.test(cp + cm))
    return { provinceCode: cp.padStart(2, "0"), municipalityCode: cp.padStart(2, "0") + cm.padStart(3, "0") };
  const link = igraf ? /[?&]del=(\d+)&mun=(\d+)/.exec(igraf) : null;
  const ine =
    (link ? municipalityByCatastroCode(link[1]!.padStart(2, "0") + link[2]!.padStart(3, "0"))?.ine : null) ??
    ineByNames(str(dt?.nm), str(dt?.np));
  return { provinceCode: ine ? ine.slice(0, 2) : null, municipalityCode: ine };
}

/** The address as Catastro's `ldt` writes it, for answers that lack `ldt` (units of a parcel list). */
function addressOf(dt: Json | undefined, withUnit: boolean): string | null {
  const lourb = lourbOf(dt);
  const lorus = dt?.locs?.lors?.lorus;
  const dir = lourb?.dir ?? {};
  const loint = lourb?.loint ?? {};
  const parts: unknown[] = [
    dir.tv,
    dir.nv,
    str(dir.pnp) && dir.pnp !== "0" ? dir.pnp : null,
    str(dir.snp) && dir.snp !== "0" ? dir.snp : null,
    dir.plp,
  ];
  if (lorus?.cpp) parts.push(`Polígono ${lorus.cpp.cpo} Parcela ${lorus.cpp.cpa}`, lorus.npa);
  if (withUnit) parts.push(loint.es && `Es:${loint.es}`, loint.pt && `Pl:${loint.pt}`, loint.pu && `Pt:${loint.pu}`);
  if (!parts.some((p) => str(p))) return null;
  parts.push(lourb?.dp, dt?.nm, dt?.np ? `(${dt.np})` : null);
  return parts.map(str).filter(Boolean).join(" ");
}

const postalCode = (lourb: Json | undefined) => {
  const dp = str(lourb?.dp);
  return dp && /^\d{4,5}$/.test(dp) ? dp.padStart(5, "0") : null;
};

/** The street as Catastro files it (`dir`: type code, name, number), for registers kept by address; null for none. */
function streetOf(dt: Json | undefined): CadastreFacts["street"] {
  const dir = lourbOf(dt)?.dir;
  const name = str(dir?.nv);
  return name ? { type: str(dir?.tv) ?? "", name, number: str(dir?.pnp) ?? "" } : null;
}

const lourbOf = (dt: Json | undefined): Json | undefined => dt?.locs?.lous?.lourb ?? dt?.locs?.lors?.lourb;

/** Staircase, floor and door; null when Catastro gives none of them (rustic units, trimmed answers). */
function unitOf(dt: Json | undefined): CadastreFacts["unit"] {
  const loint = lourbOf(dt)?.loint;
  const unit = { staircase: str(loint?.es), floor: str(loint?.pt), door: str(loint?.pu) };
  return unit.staircase || unit.floor || unit.door ? unit : null;
}

const kindOf = (cn: unknown): CadastreFacts["kind"] => (cn === "UR" ? "urban" : cn === "RU" ? "rustic" : null);

/** Rustic references: delegation + municipality (5 digits), a letter, polygon (3) and parcel (5). */
const RUSTIC = /^\d{5}[A-Z]\d{8}/;

function referenceOf(rc: Json | undefined): string | null {
  const ref = [rc?.pc1, rc?.pc2, rc?.car, rc?.cc1, rc?.cc2].map((p) => str(p) ?? "").join("");
  return ref.length === 20 ? ref : null;
}

/** One unit (`bico`): a 20-character reference, or a parcel that holds a single unit. */
function unitFacts(requested: string, bico: Json): CadastreFacts {
  const bi = bico.bi as Json;
  const dt = bi.dt as Json | undefined;
  const resolved = referenceOf(bi.idbi?.rc);
  return {
    // The unit's own 20 characters when Catastro resolved a parcel to it: certificates are
    // registered per unit, so the later lookups should ask for those.
    reference: resolved?.startsWith(requested.slice(0, 14)) ? resolved : requested,
    kind: kindOf(bi.idbi?.cn),
    address: str(bi.ldt)?.replace(/\s+/g, " ") ?? addressOf(dt, true),
    municipality: str(dt?.nm),
    province: str(dt?.np),
    ...codes(dt, str(bico.finca?.infgraf?.igraf)),
    use: str(bi.debi?.luso),
    surfaceM2: area(bi.debi?.sfc),
    yearBuilt: int(bi.debi?.ant),
    ...(requested.length === 14 ? { units: 1 } : {}),
    plotAreaM2: area(bico.finca?.dff?.ss),
    unit: unitOf(dt),
    postalCode: postalCode(lourbOf(dt)),
    street: streetOf(dt),
  };
}

/**
 * A parcel of several units (`lrcdnp`), reported as the building, from this one answer (asking
 * for each unit again would multiply the load on Catastro by the number of units): the address
 * without staircase, floor and door; the oldest year, which is what a first technical inspection
 * depends on; the use with the largest built area (17 flats outweigh 20 parking spaces; first seen
 * wins a tie); the summed built surface.
 */
function parcelFacts(requested: string, units: Json[]): CadastreFacts {
  const first = units[0]!;
  const years = units.map((u) => int(u.debi?.ant)).filter((y): y is number => y !== null && y > 0);
  const uses = new Map<string, number>();
  for (const u of units) {
    const use = str(u.debi?.luso);
    if (use) uses.set(use, (uses.get(use) ?? 0) + (area(u.debi?.sfc) ?? 0));
  }
  const surfaces = units.map((u) => area(u.debi?.sfc)).filter((s): s is number => s !== null);
  return {
    reference: requested,
    // The list carries no `cn`: the reference's shape tells rustic from urban.
    kind: RUSTIC.test(requested) ? "rustic" : "urban",
    address: addressOf(first.dt, false),
    municipality: str(first.dt?.nm),
    province: str(first.dt?.np),
    ...codes(first.dt, null),
    use: [...uses.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
    surfaceM2: surfaces.length ? surfaces.reduce((a, b) => a + b, 0) : null,
    yearBuilt: years.length ? Math.min(...years) : null,
    units: units.length,
    plotAreaM2: null,
    unit: null,
    postalCode: postalCode(lourbOf(first.dt)),
    street: streetOf(first.dt),
  };
}

/**
 * What a Catastro error means: the reference does not exist (`not_found`), the request can never
 * succeed as sent (`permanent`: a malformed or missing reference, an unknown province), or the
 * service failed this time (`transient`, retried). Code 5 and the messages are as observed and as
 * the DGC manual's Annex I words them; an unknown code is retried, within the retry schedule.
 */
export function classifyCatastroError(cod: string, des: string): "not_found" | "permanent" | "transient" {
  if (["12", "17", "76"].includes(cod)) return "permanent";
  if (cod === "5" || /(INMUEBLE|REFERENCIA CATASTRAL) NO EXISTE|NO EXISTE NING[UÚ]N INMUEBLE/i.test(des))
    return "not_found";
  if (/OBLIGATORI|POSICIONES|CORRECTAMENTE FORMADA|NO ES V[AÁ]LID|INCORRECT|NO EXISTE/i.test(des)) return "permanent";
  return "transient";
}

/** Errors in `lerr` (a list in JSON, `lerr.err` in some answers), as the first code and message. */
function firstError(root: Json): { cod: string; des: string } | null {
  const errors: Json[] = Array.isArray(root.lerr) ? root.lerr : root.lerr?.err ? [root.lerr.err].flat() : [];
  return errors.length ? { cod: str(errors[0]!.cod) ?? "unknown", des: str(errors[0]!.des) ?? "" } : null;
}

/** Interprets a Consulta_DNPRC JSON answer; throws UpstreamError("malformed") for anything else. */
export function parseDnprc(body: unknown, reference: string): SourceOutcome<CadastreFacts> {
  const root = (body as Json | null)?.consulta_dnprcResult;
  if (!root || typeof root !== "object") throw new UpstreamError("malformed", "no consulta_dnprcResult in the answer");
  const error = firstError(root);
  if (error) {
    const kind = classifyCatastroError(error.cod, error.des);
    if (kind === "not_found")
      return {
        kind: "not_found",
        provider: PROVIDERS.catastro,
        summary: { cod: Number(error.cod) || error.cod, des: error.des },
      };
    return {
      kind: "error",
      code: `catastro_${error.cod}`,
      message: error.des.slice(0, 200),
      provider: PROVIDERS.catastro,
      ...(kind === "permanent" ? { permanent: true } : {}),
    };
  }
  if (root.bico?.bi) {
    const facts = unitFacts(reference, root.bico);
    return {
      kind: "found",
      data: facts,
      provider: PROVIDERS.catastro,
      summary: { units: 1, province: facts.provinceCode, municipality: facts.municipalityCode },
    };
  }
  const units = root.lrcdnp?.rcdnp;
  if (Array.isArray(units) && units.length) {
    const facts = parcelFacts(reference, units);
    return {
      kind: "found",
      data: facts,
      provider: PROVIDERS.catastro,
      summary: { units: units.length, province: facts.provinceCode, municipality: facts.municipalityCode },
    };
  }
  throw new UpstreamError("malformed", "neither bico nor lrcdnp in the answer");
}

const coordinate = (v: unknown, min: number, max: number) => {
  const n = typeof v === "number" ? v : Number(String(v ?? "").replace(",", "."));
  return Number.isFinite(n) && n >= min && n <= max ? n : null;
};

/**
 * The parcel's point from a Consulta_CPMRC JSON answer asked in EPSG:4326 (`coordenadas.coord[]`
 * with `geo.xcen` = longitude, `geo.ycen` = latitude): null when Catastro has no point for it
 * (an error in `lerr`), UpstreamError("malformed") for anything else.
 */
export function parseCpmrc(body: unknown): Location | null {
  const root = (body as Json | null)?.Consulta_CPMRCResult ?? (body as Json | null)?.consulta_cpmrcResult;
  if (!root || typeof root !== "object") throw new UpstreamError("malformed", "no Consulta_CPMRCResult in the answer");
  if (firstError(root)) return null;
  const coord = [root.coordenadas?.coord].flat()[0] as Json | undefined;
  const geo = coord?.geo;
  if (!geo) throw new UpstreamError("malformed", "no coordenadas.coord.geo in the answer");
  if (str(geo.srs) && str(geo.srs) !== "EPSG:4326")
    throw new UpstreamError("malformed", `coordinates in ${str(geo.srs)}, not EPSG:4326`);
  const longitude = coordinate(geo.xcen, -180, 180);
  const latitude = coordinate(geo.ycen, -90, 90);
  if (longitude === null || latitude === null)
    throw new UpstreamError("malformed", "coordinates are not WGS 84 degrees");
  return { latitude, longitude };
}
