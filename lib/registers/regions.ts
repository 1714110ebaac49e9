// The region table: what Finca knows about each of the 19 autonomous communities and cities, in one
// place, keyed by the reference data's own names (lib/reference-data: a name that is not one of
// them does not compile, and the provinces and the foral flag come from the same data). From it
// are derived the live clients' province dispatch (liveRoutes), the lists of live registers
// (metrics labels, the admin page, `registers check`), the datasets of the index and their
// community, and the coverage table (./coverage.ts).
import { FORMAT_EVIDENCE, type FormatEvidenceLevel, type SourceName } from "@/lib/domain";
import { CATALONIA_REGISTRY } from "@/lib/enrichment/sources/registries/catalonia";
import { ARAGON_REGISTRY } from "@/lib/enrichment/sources/registries/aragon";
import { GESIEE_REGISTRY } from "@/lib/enrichment/sources/registries/gesiee";
import { VALENCIA_REGISTRY } from "@/lib/enrichment/sources/registries/valencia";
import { PROVIDERS, type LiveRoutes, type Provider } from "@/lib/enrichment/sources/types";
import type { CheckTarget } from "@/lib/enrichment/sources/check";
import {
  allCommunities,
  allMunicipalities,
  provinceByCode,
  type Community,
  type CommunityName,
} from "@/lib/reference-data";
import * as datasets from "./datasets";
import type { Dataset, FormatEvidence } from "./datasets";

/** A register queried by reference, live. */
export interface LiveRegister {
  source: SourceName;
  /** As in `enrichment.<source>.provider` and the metrics' `provider` label. */
  provider: Provider;
  /** The registry label its answers carry. */
  registry: string;
  evidence: FormatEvidence;
  /** A reference in its territory that `registers check` asks it about, and that reference's province. */
  check: { reference: string; province: string };
}

/** Godelleta's recorded unit (Catastro answers it; the GVA registers are asked about it). */
const VALENCIA_UNIT = "2749704YJ0624N0001DI";
/** A Barcelona parcel of the ICAEN fixtures; any answer, certificates or none, proves the register. */
const CATALONIA_UNIT = "0625102DF3802F0001QI";
/** A Zaragoza-province parcel of the register index fixtures: any answer proves the view. */
const ARAGON_UNIT = "7541901XM8174S0001SQ";

/** The national cadastre: every community whose cadastre is the DGC's (all but the foral ones). */
export const CADASTRE: LiveRegister = {
  source: "cadastre",
  provider: PROVIDERS.catastro,
  registry: "Dirección General del Catastro (OVC)",
  evidence: {
    level: "confirmed",
    citations: [
      "DGC's manual of the OVC services (Consulta_DNPRC, Consulta_CPMRC)",
      "at least eight independent public clients (shared research, registers-coverage.md)",
      "answers recorded from the live service (lib/enrichment/sources/cadastre/fixtures)",
    ],
  },
  check: { reference: VALENCIA_UNIT, province: "46" },
};

const ICAEN_EVIDENCE: FormatEvidence = {
  level: "confirmed",
  citations: [
    "ICAEN's field dictionary of j6ii-t3w2 (fndvit/mds-udg-viz-i-dgpcd-hackathon-25, src/dades/font/dictionary.json)",
    "Socrata's SODA API documentation (dev.socrata.com)",
    "independent peer clients (casedra, habitalens) query it by reference",
  ],
};

const GVA_WFS_EVIDENCE = (layer: string): FormatEvidence => ({
  level: "confirmed",
  citations: [
    `the GVA WFS capabilities of ${layer} (CC BY 4.0 Generalitat, as peers recorded them)`,
    `several independent public clients filter ${layer} by cadastral reference`,
  ],
});

const CATALONIA_CERTIFICATES: LiveRegister = {
  source: "energy_certificate",
  provider: PROVIDERS.catalonia,
  registry: CATALONIA_REGISTRY,
  evidence: ICAEN_EVIDENCE,
  check: { reference: CATALONIA_UNIT, province: "08" },
};

export interface RegionEntry {
  /** Live registers asked by reference after the index (certificate and ITE). */
  live: readonly LiveRegister[];
  /** The datasets of the register index that cover it (or part of it). */
  datasets: readonly Dataset[];
}

const none: RegionEntry = { live: [], datasets: [] };

const TABLE: Readonly<Record<CommunityName, RegionEntry>> = {
  Andalucía: { live: [], datasets: [datasets.andalucia] },
  Aragón: {
    live: [
      {
        source: "energy_certificate",
        provider: PROVIDERS.aragon,
        registry: ARAGON_REGISTRY,
        evidence: {
          level: "confirmed",
          citations: [
            "aragonopendata/ga-od-core-v2, src/gaodcore/views.py and connectors.py: the API's parameters and answer",
            "view 237's columns: NBEM's Aragón script and independent public analyses of the downloaded view",
          ],
        },
        check: { reference: ARAGON_UNIT, province: "50" },
      },
    ],
    datasets: [datasets.aragon],
  },
  "Principado de Asturias": { live: [], datasets: [datasets.asturias] },
  // bhvx-p8vz gives one letter whose meaning (primary energy or CO2) is unconfirmed: not imported.
  "Illes Balears": none,
  Canarias: { live: [], datasets: [datasets.canarias] },
  Cantabria: { live: [], datasets: [datasets.cantabria] },
  "Castilla y León": { live: [], datasets: [datasets.castillaLeon] },
  "Castilla-La Mancha": { live: [], datasets: [datasets.castillaLaMancha] },
  Cataluña: {
    live: [
      CATALONIA_CERTIFICATES,
      // The IITE code on ICAEN's certificates: evidence an inspection exists (see ite/live.ts).
      { ...CATALONIA_CERTIFICATES, source: "ite" },
    ],
    datasets: [datasets.catalonia],
  },
  "Comunitat Valenciana": {
    live: [
      {
        source: "energy_certificate",
        provider: PROVIDERS.valencia,
        registry: VALENCIA_REGISTRY,
        evidence: GVA_WFS_EVIDENCE("26_GCEE ms:CEEEdificios"),
        check: { reference: VALENCIA_UNIT, province: "46" },
      },
      {
        source: "ite",
        provider: PROVIDERS.gesiee,
        registry: GESIEE_REGISTRY,
        evidence: GVA_WFS_EVIDENCE("0801_GESIEE ms:GESIEE.Informes"),
        check: { reference: VALENCIA_UNIT, province: "46" },
      },
    ],
    datasets: [datasets.valencia],
  },
  Extremadura: none,
  Galicia: { live: [], datasets: [datasets.galicia] },
  // The community's registry's reference column is unconfirmed; Madrid city's ITE register is imported.
  "Comunidad de Madrid": { live: [], datasets: [datasets.madridIte] },
  "Región de Murcia": none,
  // Foral cadastres (their references are not Catastro's): nothing can be located.
  "Comunidad Foral de Navarra": none,
  "País Vasco": none,
  "La Rioja": { live: [], datasets: [datasets.laRioja] },
  "Ciudad Autónoma de Ceuta": none,
  "Ciudad Autónoma de Melilla": none,
};

export interface Region extends Community, RegionEntry {
  /** Live registers for each source, the cadastre included. */
  registers: readonly LiveRegister[];
}

/** The 19 communities and cities, by INE code, with what the table says of each. */
export const REGIONS: readonly Region[] = allCommunities().map((community) => {
  const entry = TABLE[community.name];
  return { ...community, ...entry, registers: [...(community.catastro ? [CADASTRE] : []), ...entry.live] };
});

/** Every dataset of the register index, in the table's order. */
export const DATASETS: readonly Dataset[] = REGIONS.flatMap((r) => r.datasets);

export function datasetById(id: string): Dataset | null {
  return DATASETS.find((d) => d.id === id) ?? null;
}

/** The community a dataset covers. */
export function datasetRegion(dataset: Dataset): Region {
  return REGIONS.find((r) => r.datasets.includes(dataset))!;
}

/** Province → provider, per source: how the live clients dispatch. */
export function liveRoutes(): LiveRoutes {
  const routes = (source: SourceName) =>
    new Map(
      REGIONS.flatMap((r) =>
        r.live.filter((l) => l.source === source).flatMap((l) => r.provinceCodes.map((p) => [p, l.provider] as const)),
      ),
    );
  return { energyCertificate: routes("energy_certificate"), ite: routes("ite") };
}

/** Every live register once per source, the cadastre first. */
export const LIVE_REGISTERS: readonly LiveRegister[] = [CADASTRE, ...REGIONS.flatMap((r) => r.live)];

/** The live registers' providers (metric labels, breakers, the admin's health table). */
export const liveProviders = (): string[] => [...new Set(LIVE_REGISTERS.map((l) => l.provider))];

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
 * every dataset imported: docs/registers.md's coverage figures.
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
