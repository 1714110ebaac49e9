// One register, one module (lib/registers/<id>/), one value: everything Finca knows of it. The
// region table (./regions.ts) lists the modules; the live clients' dispatch, the configuration keys,
// the metrics labels, the request budgets, the datasets and the coverage table are derived from
// that list, so adding a register is its folder and one line.
import type { z } from "zod";
import type { Db } from "@/lib/db";
import type { CadastreSource, SourceName } from "@/lib/domain";
import type {
  CadastreEndpoints,
  LiveCertificateClient,
  LiveInspectionClient,
  LiveProvider,
  Provenance,
} from "@/lib/enrichment/sources/types";
import type { CommunityName } from "@/lib/reference-data";
import type { CopyResult } from "./cadastre-copies";
import type { Dataset, FormatEvidence } from "./datasets";
import type { ImportFile } from "./import";

/**
 * A copy of the national cadastre's bulk data that the cadastre index keeps per municipality
 * (./cadastre-copies.ts), read by its module's importer.
 */
export interface CopySource {
  id: CadastreSource;
  title: string;
  evidence: FormatEvidence;
  /** The municipality (Catastro's five-digit code) a file says it is of, or null. */
  municipalityOf(file: ImportFile): Promise<string | null>;
  import(db: Db, municipality: string, files: readonly ImportFile[]): Promise<CopyResult>;
}

/** A register's live clients, as its module makes them (the region table adds its provenance). */
export type CertificateClient = Omit<LiveCertificateClient, "provenance">;
export type InspectionClient = Omit<LiveInspectionClient, "provenance" | "holds">;

/** The register's environment keys, validated: `settings` names them, each with its schema. */
export type RegisterSettings = Readonly<Record<string, string | undefined>>;

/** The terms a publisher puts its data under, and the notice they require next to it. */
export interface Licence {
  /** An SPDX identifier (`CC-BY-4.0`) or the publisher's terms' name. */
  name: string;
  /** The notice to show with values from it; null when the terms require none. */
  attribution: string | null;
  /** Where the terms are stated, and how firmly (a portal-wide statement is not the dataset's). */
  source: string;
}

interface LiveRegisterBase {
  /** As in `enrichment.<source>.provider` and the metrics' `provider` label: one of LIVE_PROVIDERS. */
  provider: LiveProvider;
  /** The registry label its answers carry. */
  registry: string;
  evidence: FormatEvidence;
  /** A reference in its territory that `registers check` asks it about, and that reference's province. */
  check: { reference: string; province: string };
}

/** A register queried by reference, live: its client, made from the register's settings. */
export type LiveRegister = LiveRegisterBase &
  (
    | { source: "cadastre"; connect(settings: RegisterSettings): Omit<CadastreEndpoints, "provenance"> }
    | { source: "energy_certificate"; connect(settings: RegisterSettings): CertificateClient }
    | { source: "ite"; holds?: LiveInspectionClient["holds"]; connect(settings: RegisterSettings): InspectionClient }
  );

export interface Register {
  /** The folder's name. */
  id: string;
  /** Whose register it is. */
  publisher: string;
  /** The community it covers; `catastro`: every community whose cadastre is the DGC's. */
  community: CommunityName | "catastro";
  licence: Licence;
  /** Environment keys it reads (its base URLs, a token), each with the schema that validates it. */
  settings: Readonly<Record<string, z.ZodType<string | undefined>>>;
  /** Asked by reference, live (certificate and ITE; the cadastre's is national). */
  live: readonly LiveRegister[];
  /** Its datasets the register index imports. */
  datasets: readonly Dataset[];
  /** Its bulk copies the cadastre index keeps per municipality (Catastro's). */
  copies?: readonly CopySource[];
  /** Requests per second the workers may send to its host by default (REGISTER_RATE_LIMITS overrides). */
  budget?: { name: string; rate: number };
}

/** What a register's answers carry of its licence (lib/enrichment's Provenance). */
export const provenanceOf = (register: Register): Provenance => ({
  licence: register.licence.name,
  attribution: register.licence.attribution,
});

/** The live registers of `source`. */
export const liveOf = <S extends SourceName>(registers: readonly Register[], source: S) =>
  registers.flatMap((r) => r.live).filter((l): l is Extract<LiveRegister, { source: S }> => l.source === source);

/** A live register that holds only inspection-report codes: no inspection register of its own. */
export const holdsCodes = (l: LiveRegister) => l.source === "ite" && l.holds === "codes";
