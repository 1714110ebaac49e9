// The region table: what Finca knows about each of the 19 autonomous communities and cities, keyed
// by the reference data's own names (lib/reference-data: a name that is not one of them does not
// compile, and the provinces and the foral flag come from the same data). It is the register
// modules (./list.ts) grouped by the community each covers; from it are derived the live clients'
// province dispatch (liveRegisters), the configuration keys (./settings.ts), the lists of live
// registers (metrics labels, the admin page, `registers check`), the request budgets, the datasets
// of the index and their community, and the coverage table (./coverage.ts).
//
// Communities without a source, and why: Illes Balears (Socrata bhvx-p8vz gives one letter whose
// meaning, primary energy or CO2, is unconfirmed: not imported); Región de Murcia, Extremadura,
// Ceuta and Melilla (no published dataset found); Navarra and País Vasco (foral cadastres: their
// references are not Catastro's, so nothing can be located).
import { FORMAT_EVIDENCE, type FormatEvidenceLevel } from "@/lib/domain";
import type { LiveProvider, LiveRegisters } from "@/lib/enrichment/sources/types";
import type { CheckTarget } from "@/lib/enrichment/sources/check";
import {
  allCommunities,
  allMunicipalities,
  provinceByCode,
  type Community,
  type CommunityName,
} from "@/lib/reference-data";
import type { Dataset } from "./datasets";
import * as list from "./list";
import {
  type CopySource,
  liveOf,
  provenanceOf,
  type LiveRegister,
  type Register,
  type RegisterSettings,
} from "./register";

/** Every register module, in the list's order. */
export const REGISTERS: readonly Register[] = Object.values(list);

export interface Region extends Community {
  /** The register modules that cover it (or part of it), the national cadastre's first where it applies. */
  modules: readonly Register[];
  /** Live registers asked by reference, the cadastre included. */
  registers: readonly LiveRegister[];
  /** Live registers asked by reference after the index (certificate and ITE). */
  live: readonly LiveRegister[];
  /** The datasets of the register index that cover it (or part of it). */
  datasets: readonly Dataset[];
}

/** The 19 communities and cities, by INE code, with the registers of each. */
export const REGIONS: readonly Region[] = allCommunities().map((community) => {
  const modules = REGISTERS.filter(
    (r) => r.community === community.name || (r.community === "catastro" && community.catastro),
  ).sort((a, b) => Number(b.community === "catastro") - Number(a.community === "catastro"));
  const registers = modules.flatMap((m) => m.live);
  return {
    ...community,
    modules,
    registers,
    live: registers.filter((l) => l.source !== "cadastre"),
    datasets: modules.flatMap((m) => m.datasets),
  };
});

/** The national cadastre's bulk copies the cadastre index keeps per municipality, in the list's order. */
export const COPY_SOURCES: readonly CopySource[] = REGISTERS.flatMap((r) => r.copies ?? []);

/** The register module a copy source belongs to (its licence and publisher). */
export const copyRegister = (source: CopySource): Register => REGISTERS.find((r) => r.copies?.includes(source))!;

/** Every dataset of the register index, in the table's order. */
export const DATASETS: readonly Dataset[] = REGIONS.flatMap((r) => r.datasets);

export function datasetById(id: string): Dataset | null {
  return DATASETS.find((d) => d.id === id) ?? null;
}

/** The community a dataset covers. */
export function datasetRegion(dataset: Dataset): Region {
  return REGIONS.find((r) => r.datasets.includes(dataset))!;
}

/** The register module a dataset belongs to (its licence and publisher). */
export function datasetRegister(dataset: Dataset): Register {
  return REGISTERS.find((r) => r.datasets.includes(dataset))!;
}

/** The register module behind a live provider, if any. */
export const providerRegister = (provider: string): Register | null =>
  REGISTERS.find((r) => r.live.some((l) => l.provider === provider)) ?? null;

/** The live registers, connected with `settings`: the cadastre's endpoints and province → client, per source. */
export function liveRegisters(settings: RegisterSettings): LiveRegisters {
  /** Province → the client of `pick`'s register there, each client made once, with its register's provenance. */
  const routes = <L extends LiveRegister, C>(pick: (m: readonly Register[]) => L[], connect: (l: L) => C) => {
    const clients = new Map(
      REGISTERS.flatMap((r) =>
        pick([r]).map((l) => [l.provider, { ...connect(l), provenance: provenanceOf(r) }] as const),
      ),
    );
    return new Map(
      REGIONS.flatMap((r) =>
        pick([...r.modules]).flatMap((l) => r.provinceCodes.map((p) => [p, clients.get(l.provider)!] as const)),
      ),
    );
  };
  const cadastre = REGISTERS.find((r) => liveOf([r], "cadastre").length);
  return {
    cadastre: cadastre
      ? { ...liveOf([cadastre], "cadastre")[0]!.connect(settings), provenance: provenanceOf(cadastre) }
      : {},
    energyCertificate: routes(
      (m) => liveOf(m, "energy_certificate"),
      (l) => l.connect(settings),
    ),
    ite: routes(
      (m) => liveOf(m, "ite"),
      (l) => ({ ...l.connect(settings), ...(l.holds ? { holds: l.holds } : {}) }),
    ),
  };
}

/** Every live register once per source, the cadastre first. */
export const LIVE_REGISTERS: readonly LiveRegister[] = [...new Set(REGIONS.flatMap((r) => r.registers))];

/** The live registers' providers (metric labels, breakers, the admin's health table). */
export const liveProviders = (): LiveProvider[] => [...new Set(LIVE_REGISTERS.map((l) => l.provider))];

/** What `registers check` asks: each live register, by the reference it knows. */
export const checkTargets = (): CheckTarget[] =>
  LIVE_REGISTERS.map((l) => ({
    register: l.provider,
    source: l.source,
    reference: l.check.reference,
    province: l.check.province,
  }));

/** Population of each community (the municipal figures of the reference data). */
export function populationByCommunity(): Map<CommunityName, number> {
  const totals = new Map<CommunityName, number>();
  for (const m of allMunicipalities()) {
    const ccaa = provinceByCode(m.provinceCode)!.ccaa;
    totals.set(ccaa, (totals.get(ccaa) ?? 0) + m.population);
  }
  return totals;
}

const LEVELS: readonly FormatEvidenceLevel[] = FORMAT_EVIDENCE;

/** The best format evidence among a community's certificate sources (live registers and datasets); null for none. */
export function certificateEvidence(region: Region): FormatEvidenceLevel | null {
  const levels = [
    ...region.live.filter((l) => l.source === "energy_certificate").map((l) => l.evidence.level),
    ...region.datasets.filter((d) => d.kinds.includes("certificate")).map((d) => d.evidence.level),
  ];
  return LEVELS.find((level) => levels.includes(level)) ?? null;
}

/**
 * Spain's population by the best evidence for the format of its community's certificate source,
 * every dataset imported: the README's coverage figures.
 */
export function populationByCertificateEvidence(): {
  level: FormatEvidenceLevel | null;
  communities: CommunityName[];
  population: number;
  share: number;
}[] {
  const population = populationByCommunity();
  const total = [...population.values()].reduce((a, b) => a + b, 0);
  return [...LEVELS, null].map((level) => {
    const communities = REGIONS.filter((r) => certificateEvidence(r) === level).map((r) => r.name);
    const sum = communities.reduce((a, name) => a + (population.get(name) ?? 0), 0);
    return { level, communities, population: sum, share: sum / total };
  });
}
