// The coverage table: per autonomous community, which providers each source asks, in order, and
// what kind the best of them is. From the live clients' provinces (lib/enrichment), the confirmed
// ITE rules, and the datasets actually imported into the index (with their date and row count).
import type { CommunityCoverage, CoverageKind, CoverageProvider, CoverageSource, RegisterRecordKind } from "@/lib/domain";
import type { Db } from "@/lib/db";
import { allCommunities, type Community } from "@/lib/reference-data";
import { LIVE_REGISTERS } from "@/lib/enrichment/sources/coverage";
import { firstInspectionAge } from "@/lib/enrichment/sources/ite/rules";
import { indexProvider, PROVIDERS } from "@/lib/enrichment/sources/types";
import type { SourceName } from "@/lib/domain";
import { listDatasets, type DatasetStatus } from "./status";

const RANK: readonly CoverageKind[] = ["live", "index", "rules", "estimate"];

const provider = (name: string, kind: CoverageKind): CoverageProvider => ({ provider: name, kind, dataset: null, as_of: null, rows: null });

function source(providers: CoverageProvider[]): CoverageSource {
  return { kind: RANK.find((kind) => providers.some((p) => p.kind === kind)) ?? "unsupported", providers };
}

export const FORAL_NOTE = "Foral cadastre: the national cadastre (Catastro) does not cover it, so its references cannot be located.";

function forCommunity(community: Community, datasets: DatasetStatus[]): CommunityCoverage {
  if (!community.catastro) {
    const none = source([]);
    return { ccaa: community.name, cadastre: none, energy_certificate: none, ite: none, note: FORAL_NOTE };
  }
  const live = (name: SourceName) =>
    LIVE_REGISTERS.filter((r) => r.source === name && (r.provinces === "all" || community.provinceCodes.some((p) => (r.provinces as ReadonlySet<string>).has(p)))).map((r) => provider(r.provider, "live"));
  const index = (kind: RegisterRecordKind) =>
    datasets
      .filter((d) => d.ccaa === community.name && d.kinds.includes(kind) && d.rows > 0)
      .map((d): CoverageProvider => ({ provider: indexProvider(d.id), kind: "index", dataset: d.id, as_of: d.asOf, rows: d.rows }));
  const rules = firstInspectionAge(community.name) === null ? [] : [provider(PROVIDERS.rules, "rules")];
  const partial = datasets.filter((d) => d.ccaa === community.name && d.area && d.rows > 0).map((d) => `${indexProvider(d.id)}: ${d.area}.`);
  return {
    ccaa: community.name,
    cadastre: source(live("cadastre")),
    energy_certificate: source([...index("certificate"), ...live("energy_certificate"), provider(PROVIDERS.estimate, "estimate")]),
    ite: source([...index("inspection"), ...rules, ...live("ite")]),
    note: partial.length ? partial.join(" ") : null,
  };
}

/** The 19 communities and cities, by INE code. */
export async function coverage(db: Db): Promise<CommunityCoverage[]> {
  const datasets = await listDatasets(db);
  return allCommunities().map((c) => forCommunity(c, datasets));
}
