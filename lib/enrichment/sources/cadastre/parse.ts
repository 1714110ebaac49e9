// Parsing of Catastro OVC `Consulta_DNPRC` JSON answers (shapes: docs in the research notes and
// the recorded answers in ./fixtures). Errors arrive with HTTP 200 in `lerr`.
import { allMunicipalities, provinceByCode } from "@/lib/reference-data";
import type { CadastreFacts, SourceOutcome } from "../types";
import { UpstreamError } from "../http";

type Json = Record<string, any>;

const str = (v: unknown) => (v === undefined || v === null || v === "" ? null : String(v).trim() || null);
const int = (v: unknown) => {
  const n = Number.parseInt(String(v ?? ""), 10);
  return Number.isFinite(n) ? n : null;
};

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase().replace(/[^A-Z0-9]/g, "");

/** Municipality by names, for answers without `loine` (some trimmed or legacy answers). */
function ineByNames(municipality: string | null, province: string | null): string | null {
  if (!municipality) return null;
  const matches = allMunicipalities().filter((m) => fold(m.name).includes(fold(municipality)) || fold(municipality) === fold(m.name));
  const exact = matches.filter((m) => fold(m.name) === fold(municipality));
  const candidates = (exact.length ? exact : matches).filter((m) => !province || fold(provinceByCode(m.provinceCode)?.name ?? "").includes(fold(province)));
  return candidates.length === 1 ? candidates[0]!.ine : null;
}

function codes(dt: Json | undefined): { provinceCode: string | null; municipalityCode: string | null } {
  const cp = str(dt?.loine?.cp);
  const cm = str(dt?.loine?.cm);
  if (cp && cm) return { provinceCode: cp.padStart(2, "0"), municipalityCode: cp.padStart(2, "0") + cm.padStart(3, "0") };
  const ine = ineByNames(str(dt?.nm), str(dt?.np));
  return { provinceCode: ine ? ine.slice(0, 2) : null, municipalityCode: ine };
}

function addressOf(dt: Json | undefined, withUnit: boolean): string | null {
  const lourb = dt?.locs?.lous?.lourb ?? dt?.locs?.lors?.lourb;
  const dir = lourb?.dir;
  if (!dir?.nv) return null;
  const loint = lourb?.loint ?? {};
  const parts = [dir.tv, dir.nv, dir.pnp && dir.pnp !== "0" ? dir.pnp : null, dir.plp];
  if (withUnit) parts.push(loint.es && `Es:${loint.es}`, loint.pt && `Pl:${loint.pt}`, loint.pu && `Pt:${loint.pu}`);
  parts.push(lourb?.dp, dt?.nm, dt?.np ? `(${dt.np})` : null);
  return parts.filter(Boolean).join(" ");
}

const kindOf = (cn: unknown): CadastreFacts["kind"] => (cn === "UR" ? "urban" : cn === "RU" ? "rustic" : null);

function unitFacts(reference: string, bi: Json): CadastreFacts {
  const dt = bi.dt as Json | undefined;
  return {
    reference,
    kind: kindOf(bi.idbi?.cn),
    address: str(bi.ldt)?.replace(/\s+/g, " ") ?? addressOf(dt, true),
    municipality: str(dt?.nm),
    province: str(dt?.np),
    ...codes(dt),
    use: str(bi.debi?.luso),
    surfaceM2: int(bi.debi?.sfc),
    yearBuilt: int(bi.debi?.ant),
  };
}

/**
 * A parcel of several units: the building as a whole — its address without floor and door, the
 * oldest year (what a first inspection depends on), the most common use, the summed surface.
 */
function parcelFacts(reference: string, units: Json[]): CadastreFacts {
  const first = units[0]!;
  const years = units.map((u) => int(u.debi?.ant)).filter((y): y is number => y !== null && y > 0);
  const uses = new Map<string, number>();
  for (const u of units) if (u.debi?.luso) uses.set(u.debi.luso, (uses.get(u.debi.luso) ?? 0) + 1);
  const surfaces = units.map((u) => int(u.debi?.sfc)).filter((s): s is number => s !== null);
  return {
    reference,
    kind: reference.length === 14 && /^\d{5}[A-Z]/.test(reference) ? "rustic" : "urban",
    address: addressOf(first.dt, false),
    municipality: str(first.dt?.nm),
    province: str(first.dt?.np),
    ...codes(first.dt),
    use: [...uses.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
    surfaceM2: surfaces.length ? surfaces.reduce((a, b) => a + b, 0) : null,
    yearBuilt: years.length ? Math.min(...years) : null,
    units: units.length,
  };
}

export function parseDnprc(body: unknown, reference: string): SourceOutcome<CadastreFacts> {
  const root = (body as Json | null)?.consulta_dnprcResult ?? (body as Json | null)?.consulta_dnprcresult;
  if (!root || typeof root !== "object") throw new UpstreamError("malformed", "no consulta_dnprcResult in the answer");
  const errors: Json[] = Array.isArray(root.lerr) ? root.lerr : root.lerr?.err ? [].concat(root.lerr.err) : [];
  if (errors.length) {
    const cod = String(errors[0]!.cod);
    if (cod === "5") return { kind: "not_found", summary: { cod: 5 } };
    return { kind: "error", code: `catastro_${cod}`, message: String(errors[0]!.des ?? "").slice(0, 200) };
  }
  if (root.bico?.bi) {
    const facts = unitFacts(reference, root.bico.bi);
    if (reference.length === 14) facts.units = 1;
    return { kind: "found", data: facts, summary: { units: 1, province: facts.provinceCode, municipality: facts.municipalityCode } };
  }
  const units = root.lrcdnp?.rcdnp;
  if (Array.isArray(units) && units.length) {
    const facts = parcelFacts(reference, units);
    return { kind: "found", data: facts, summary: { units: units.length, province: facts.provinceCode, municipality: facts.municipalityCode } };
  }
  throw new UpstreamError("malformed", "neither bico nor lrcdnp in the answer");
}
