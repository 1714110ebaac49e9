// The coverage table: per autonomous community, which providers each source asks, in order, and
// what kind the best of them is, whether it covers the whole community, with the evidence each
// format rests on and the licence of each register. From the region table (./regions.ts: the
// register modules), the confirmed ITE rules, and the datasets actually imported into the index
// (with their date, whether that date is stale, and their row count), and the cadastre index's copies
// of Catastro's bulk data (asked before Catastro's live services).
import type {
  CommunityCoverage,
  CoverageKind,
  CoverageProvider,
  CoverageSource,
  RegisterRecordKind,
  SourceName,
} from "@/lib/domain";
import type { Db } from "@/lib/db";
import { firstInspectionAge } from "@/lib/enrichment/sources/ite/rules";
import { indexProvider, PROVIDERS } from "@/lib/enrichment/sources/types";
import { holdsCodes, type Licence } from "./register";
import { cadastreIndex } from "./cadastre-lookup";
import { COPY_SOURCES, copyRegister, REGIONS, type Region } from "./regions";
import { listDatasets, type DatasetStatus } from "./status";

const RANK: readonly CoverageKind[] = ["live", "index", "rules", "estimate"];

const entry = (
  provider: string,
  kind: CoverageKind,
  evidence: { level: CoverageProvider["format_evidence"]; citations: readonly string[] } | null,
  licence: Licence | null,
): CoverageProvider => ({
  provider,
  kind,
  dataset: null,
  as_of: null,
  stale: null,
  rows: null,
  format_evidence: evidence?.level ?? null,
  citations: [...(evidence?.citations ?? [])],
  licence: licence?.name ?? null,
  attribution: licence?.attribution ?? null,
});

/**
 * A provider, the part of the community it covers (null: all of it), and whether it holds only
 * inspection-report codes (Catalonia's certificates: asked, but no inspection register).
 */
type Covering = { provider: CoverageProvider; area: string | null; codes?: boolean };

/**
 * The strongest kind among the providers that are sources of their own (codes are not: a parcel
 * without one is `unsupported`); partial when every provider of that kind covers only part of the
 * community.
 */
function source(coverings: Covering[]): CoverageSource {
  const counted = coverings.filter((c) => !c.codes);
  const kind = RANK.find((k) => counted.some((c) => c.provider.kind === k)) ?? "unsupported";
  const best = counted.filter((c) => c.provider.kind === kind);
  const partial = best.length > 0 && best.every((c) => c.area !== null);
  return {
    kind,
    providers: coverings.map((c) => c.provider),
    partial,
    area: partial ? best.map((c) => c.area).join("; ") : null,
  };
}

const whole = (provider: CoverageProvider): Covering => ({ provider, area: null });

export const CODES_NOTE =
  "No inspection register: certificates carry an inspection-report code, often empty; the ITE is found with " +
  "that code where a parcel has one, else unsupported.";

export const FORAL_NOTE =
  "Foral cadastre: the province keeps its own cadastre, which the national cadastre (Catastro) does not cover: " +
  "neither Catastro's live services (OVC) nor the cadastre index's copies of its bulk data hold its references, " +
  "so they cannot be located.";

/**
 * Catastro's territorial offices whose delegation code (a copy's first two digits) is not the INE
 * province's (shared research, catastro/README.md §4, from the ATOM paths): the province they are in.
 */
const OFFICE_PROVINCES: Readonly<Record<string, string>> = {
  "51": "30", // Cartagena
  "52": "33", // Gijón
  "53": "11", // Jerez de la Frontera
  "54": "36", // Vigo
  "55": "51", // Ceuta
  "56": "52", // Melilla
};
const provinceOf = (municipality: string) => OFFICE_PROVINCES[municipality.slice(0, 2)] ?? municipality.slice(0, 2);

type CopyStatus = Awaited<ReturnType<ReturnType<typeof cadastreIndex>["copies"]>>[number];

/**
 * The cadastre index's copies of a community, one provider per copy source: the oldest copy's date,
 * stale when any is, the records of all, and how many municipalities (part of the community).
 */
function copiesOf(region: Region, copies: CopyStatus[]): Covering[] {
  return COPY_SOURCES.flatMap((source) => {
    const held = copies.filter(
      (c) => c.source === source.id && c.generation > 0 && region.provinceCodes.includes(provinceOf(c.municipality)),
    );
    if (!held.length) return [];
    const dates = held.map((c) => c.asOf).filter((d): d is string => d !== null);
    const provider: CoverageProvider = {
      ...entry(indexProvider(source.id), "index", source.evidence, copyRegister(source).licence),
      dataset: source.id,
      as_of: dates.length === held.length ? dates.sort()[0]! : null,
      stale: held.some((c) => c.stale),
      rows: held.reduce((n, c) => n + Object.values(c.counts).reduce((a, b) => a + b, 0), 0),
    };
    return [{ provider, area: `${held.length} municipalit${held.length === 1 ? "y" : "ies"} imported` }];
  });
}

function forRegion(region: Region, datasets: DatasetStatus[], copies: CopyStatus[]): CommunityCoverage {
  if (!region.catastro) {
    const nothing = source([]);
    return { ccaa: region.name, cadastre: nothing, energy_certificate: nothing, ite: nothing, note: FORAL_NOTE };
  }
  const imported = datasets.filter((d) => d.ccaa === region.name && d.rows > 0);
  const live = (name: SourceName) =>
    region.modules.flatMap((m) =>
      m.live
        .filter((r) => r.source === name)
        .map((r) => ({ ...whole(entry(r.provider, "live", r.evidence, m.licence)), codes: holdsCodes(r) })),
    );
  const index = (kind: RegisterRecordKind) =>
    imported
      .filter((d) => d.kinds.includes(kind))
      .map(
        (d): Covering => ({
          provider: {
            ...entry(indexProvider(d.id), "index", d.evidence, d.licence),
            dataset: d.id,
            as_of: d.asOf,
            stale: d.stale,
            rows: d.rows,
          },
          area: d.area,
          codes: kind === "inspection" && d.inspections === "codes",
        }),
      );
  const rules = firstInspectionAge(region.name) === null ? [] : [whole(entry(PROVIDERS.rules, "rules", null, null))];
  const held = copiesOf(region, copies);
  const partial = [
    ...held.map((c) => `${c.provider.provider}: ${c.area}.`),
    ...imported.filter((d) => d.area).map((d) => `${indexProvider(d.id)}: ${d.area}.`),
  ];
  const codes = region.live.some(holdsCodes) ? [CODES_NOTE] : [];
  return {
    ccaa: region.name,
    cadastre: source([...held, ...live("cadastre")]),
    energy_certificate: source([
      ...index("certificate"),
      ...live("energy_certificate"),
      whole(entry(PROVIDERS.estimate, "estimate", null, null)),
    ]),
    ite: source([...index("inspection"), ...rules, ...live("ite")]),
    note: [...partial, ...codes].join(" ") || null,
  };
}

/** The 19 communities and cities, by INE code; index copies older than `staleDays` are `stale`. */
export async function coverage(db: Db, staleDays: number): Promise<CommunityCoverage[]> {
  const [datasets, copies] = await Promise.all([listDatasets(db, staleDays), cadastreIndex(db).copies(staleDays)]);
  return REGIONS.map((r) => forRegion(r, datasets, copies));
}
