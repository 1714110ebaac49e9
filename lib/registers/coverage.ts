// The coverage table: per autonomous community, which providers each source asks, in order, and
// what kind the best of them is, with the evidence each format rests on. From the region table
// (./regions.ts: live registers and datasets), the confirmed ITE rules, and the datasets actually
// imported into the index (with their date and row count).
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
import { REGIONS, type Region } from "./regions";
import { listDatasets, type DatasetStatus } from "./status";

const RANK: readonly CoverageKind[] = ["live", "index", "rules", "estimate"];

const entry = (
  provider: string,
  kind: CoverageKind,
  evidence: { level: CoverageProvider["format_evidence"]; citations: readonly string[] } | null,
): CoverageProvider => ({
  provider,
  kind,
  dataset: null,
  as_of: null,
  rows: null,
  format_evidence: evidence?.level ?? null,
  citations: [...(evidence?.citations ?? [])],
});

function source(providers: CoverageProvider[]): CoverageSource {
  return { kind: RANK.find((kind) => providers.some((p) => p.kind === kind)) ?? "unsupported", providers };
}

export const FORAL_NOTE =
  "Foral cadastre: the national cadastre (Catastro) does not cover it, so its references cannot be located.";

function forRegion(region: Region, datasets: DatasetStatus[]): CommunityCoverage {
  if (!region.catastro) {
    const nothing = source([]);
    return { ccaa: region.name, cadastre: nothing, energy_certificate: nothing, ite: nothing, note: FORAL_NOTE };
  }
  const imported = datasets.filter((d) => d.ccaa === region.name && d.rows > 0);
  const live = (name: SourceName) =>
    region.registers.filter((r) => r.source === name).map((r) => entry(r.provider, "live", r.evidence));
  const index = (kind: RegisterRecordKind) =>
    imported
      .filter((d) => d.kinds.includes(kind))
      .map(
        (d): CoverageProvider => ({
          ...entry(indexProvider(d.id), "index", d.evidence),
          dataset: d.id,
          as_of: d.asOf,
          rows: d.rows,
        }),
      );
  const rules = firstInspectionAge(region.name) === null ? [] : [entry(PROVIDERS.rules, "rules", null)];
  const partial = imported.filter((d) => d.area).map((d) => `${indexProvider(d.id)}: ${d.area}.`);
  return {
    ccaa: region.name,
    cadastre: source(live("cadastre")),
    energy_certificate: source([
      ...index("certificate"),
      ...live("energy_certificate"),
      entry(PROVIDERS.estimate, "estimate", null),
    ]),
    ite: source([...index("inspection"), ...rules, ...live("ite")]),
    note: partial.length ? partial.join(" ") : null,
  };
}

/** The 19 communities and cities, by INE code. */
export async function coverage(db: Db): Promise<CommunityCoverage[]> {
  const datasets = await listDatasets(db);
  return REGIONS.map((r) => forRegion(r, datasets));
}
