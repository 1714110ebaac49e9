// The coverage table: per autonomous community, which providers each source asks, in order, and
// what kind the best of them is, whether it covers the whole community, with the evidence each
// format rests on and the licence of each register. From the region table (./regions.ts: the
// register modules), the confirmed ITE rules, and the datasets actually imported into the index
// (with their date, whether that date is stale, and their row count).
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
import { REGIONS, type Region } from "./regions";
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
  "Foral cadastre: the national cadastre (Catastro) does not cover it, so its references cannot be located.";

function forRegion(region: Region, datasets: DatasetStatus[]): CommunityCoverage {
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
  const partial = imported.filter((d) => d.area).map((d) => `${indexProvider(d.id)}: ${d.area}.`);
  const codes = region.live.some(holdsCodes) ? [CODES_NOTE] : [];
  return {
    ccaa: region.name,
    cadastre: source(live("cadastre")),
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
  const datasets = await listDatasets(db, staleDays);
  return REGIONS.map((r) => forRegion(r, datasets));
}
