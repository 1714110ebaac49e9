// Parsing of Catastro OVC `Consulta_DNPRC` JSON answers (shapes: the research notes and the
// recorded answers in ./fixtures). Errors arrive with HTTP 200 in `lerr`; cod 5 means "no such
// property", every other code is a failure of the request.
import { allMunicipalities, municipalityByCatastroCode, provinceByCode } from "@/lib/reference-data";
import type { CadastreFacts, SourceOutcome } from "../types";
import { UpstreamError } from "../http";

// The answer is untyped JSON: every field read below is optional and checked on use.
type Json = Record<string, any>;

const str = (v: unknown) => (v === undefined || v === null || typeof v === "object" ? null : String(v).trim() || null);
const int = (v: unknown) => {
  const n = Number.parseInt(String(v ?? ""), 10);
  return Number.isFinite(n) ? n : null;
};

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase().replace(/[^A-Z0-9]/g, "");

/** Every spelling of a bilingual official name ("Alicante/Alacant", "Castelló de la Plana"...), folded. */
const spellings = (name: string) => name.split("/").map(fold);

/** By names, the last resort: Catastro writes them upper case, mostly without accents. */
function ineByNames(municipality: string | null, province: string | null): string | null {
  if (!municipality) return null;
  const wanted = fold(municipality);
  const named = allMunicipalities().filter((m) => spellings(m.name).includes(wanted));
  // Narrow by province where its name matches ours; Catastro's spelling may differ ("BALEARES").
  const inProvince = province ? named.filter((m) => spellings(provinceByCode(m.provinceCode)?.name ?? "").includes(fold(province))) : [];
  const matches = inProvince.length ? inProvince : named;
  return matches.length === 1 ? matches[0]!.ine : null;
}

/**
 * INE codes: `loine` when present (no leading zeros: cp "28", cm "79" → 28079). Some answers
 * (trimmed ones, like the Godelleta fixture) lack it; then the Catastro code in the cartography
 * link (`del`, `mun`), then the names.
 */
function codes(dt: Json | undefined, igraf: string | null): { provinceCode: string | null; municipalityCode: string | null } {
  const cp = str(dt?.loine?.cp);
  const cm = str(dt?.loine?.cm);
  if (cp && cm && /^\d+$/.test(cp + cm)) return { provinceCode: cp.padStart(2, "0"), municipalityCode: cp.padStart(2, "0") + cm.padStart(3, "0") };
  const link = igraf ? /[?&]del=(\d+)&mun=(\d+)/.exec(igraf) : null;
  const ine = (link ? municipalityByCatastroCode(link[1]!.padStart(2, "0") + link[2]!.padStart(3, "0"))?.ine : null) ?? ineByNames(str(dt?.nm), str(dt?.np));
  return { provinceCode: ine ? ine.slice(0, 2) : null, municipalityCode: ine };
}

/** The address as Catastro's `ldt` writes it, for answers that lack `ldt` (units of a parcel list). */
function addressOf(dt: Json | undefined, withUnit: boolean): string | null {
  const lourb = dt?.locs?.lous?.lourb ?? dt?.locs?.lors?.lourb;
  const lorus = dt?.locs?.lors?.lorus;
  const dir = lourb?.dir ?? {};
  const loint = lourb?.loint ?? {};
  const parts: unknown[] = [dir.tv, dir.nv, str(dir.pnp) && dir.pnp !== "0" ? dir.pnp : null, str(dir.snp) && dir.snp !== "0" ? dir.snp : null, dir.plp];
  if (lorus?.cpp) parts.push(`Polígono ${lorus.cpp.cpo} Parcela ${lorus.cpp.cpa}`, lorus.npa);
  if (withUnit) parts.push(loint.es && `Es:${loint.es}`, loint.pt && `Pl:${loint.pt}`, loint.pu && `Pt:${loint.pu}`);
  if (!parts.some((p) => str(p))) return null;
  parts.push(lourb?.dp, dt?.nm, dt?.np ? `(${dt.np})` : null);
  return parts.map(str).filter(Boolean).join(" ");
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
    reference: resolved && resolved.startsWith(requested.slice(0, 14)) ? resolved : requested,
    kind: kindOf(bi.idbi?.cn),
    address: str(bi.ldt)?.replace(/\s+/g, " ") ?? addressOf(dt, true),
    municipality: str(dt?.nm),
    province: str(dt?.np),
    ...codes(dt, str(bico.finca?.infgraf?.igraf)),
    use: str(bi.debi?.luso),
    surfaceM2: int(bi.debi?.sfc),
    yearBuilt: int(bi.debi?.ant),
    ...(requested.length === 14 ? { units: 1 } : {}),
  };
}

/**
 * A parcel of several units (`lrcdnp`), reported as the building, from this one answer (asking
 * for each unit again would multiply the load on Catastro by the number of units): the address
 * without staircase, floor and door; the oldest year, which is what a first technical inspection
 * depends on; the most common use (first seen wins a tie); the summed built surface.
 */
function parcelFacts(requested: string, units: Json[]): CadastreFacts {
  const first = units[0]!;
  const years = units.map((u) => int(u.debi?.ant)).filter((y): y is number => y !== null && y > 0);
  const uses = new Map<string, number>();
  for (const u of units) {
    const use = str(u.debi?.luso);
    if (use) uses.set(use, (uses.get(use) ?? 0) + 1);
  }
  const surfaces = units.map((u) => int(u.debi?.sfc)).filter((s): s is number => s !== null);
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
  };
}

/** Interprets a Consulta_DNPRC JSON answer; throws UpstreamError("malformed") for anything else. */
export function parseDnprc(body: unknown, reference: string): SourceOutcome<CadastreFacts> {
  const root = (body as Json | null)?.consulta_dnprcResult;
  if (!root || typeof root !== "object") throw new UpstreamError("malformed", "no consulta_dnprcResult in the answer");
  const errors: Json[] = Array.isArray(root.lerr) ? root.lerr : root.lerr?.err ? [root.lerr.err].flat() : [];
  if (errors.length) {
    const cod = str(errors[0]!.cod) ?? "unknown";
    const des = str(errors[0]!.des) ?? "";
    if (cod === "5") return { kind: "not_found", summary: { cod: 5, des } };
    return { kind: "error", code: `catastro_${cod}`, message: des.slice(0, 200) };
  }
  if (root.bico?.bi) {
    const facts = unitFacts(reference, root.bico);
    return { kind: "found", data: facts, summary: { units: 1, province: facts.provinceCode, municipality: facts.municipalityCode } };
  }
  const units = root.lrcdnp?.rcdnp;
  if (Array.isArray(units) && units.length) {
    const facts = parcelFacts(reference, units);
    return { kind: "found", data: facts, summary: { units: units.length, province: facts.provinceCode, municipality: facts.municipalityCode } };
  }
  throw new UpstreamError("malformed", "neither bico nor lrcdnp in the answer");
}
