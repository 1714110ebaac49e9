// The one interface every register implements, live (real registers) or sandbox (test mode).
import type { EnergyCertificate, IteStatus, Mode } from "@/lib/domain";

/** What the cadastre tells us about a unit; later steps derive everything else from it. */
export interface CadastreFacts {
  /** The reference the answer is about (20 characters when a unit was resolved). */
  reference: string;
  /** urban (UR) or rustic (RU) */
  kind: "urban" | "rustic" | null;
  address: string | null;
  /** Municipality and province names as the register gives them. */
  municipality: string | null;
  province: string | null;
  /** INE codes: 2-digit province, 5-digit municipality (from `loine`). */
  provinceCode: string | null;
  municipalityCode: string | null;
  /** Main use (`luso`), e.g. "Residencial". */
  use: string | null;
  surfaceM2: number | null;
  yearBuilt: number | null;
  /** Number of units when a 14-character parcel was asked for. */
  units?: number;
}

export interface SourceInput {
  /** Normalised reference as registered (14 or 20 characters). */
  reference: string;
  mode: Mode;
  /** 1 for the first try of this source for this property. */
  attempt: number;
  /** Aborted at the deadline (inline) or the job's time limit: stop and return quickly. */
  signal: AbortSignal;
}

/** A definite answer or a retryable failure. Throwing counts as `error` with code `internal`. */
export type SourceOutcome<T> =
  | { kind: "found"; data: T; summary?: Record<string, unknown> }
  | { kind: "not_found"; summary?: Record<string, unknown> }
  | { kind: "error"; code: string; message: string };

export interface CadastreSource {
  lookup(input: SourceInput): Promise<SourceOutcome<CadastreFacts>>;
}

/** An official certificate from a registry; `not_found` makes the pipeline estimate one. */
export type RegistryCertificate = EnergyCertificate & { source: "registry" };

export interface EnergyCertificateSource {
  lookup(input: SourceInput & { facts: CadastreFacts }): Promise<SourceOutcome<RegistryCertificate>>;
}

export interface IteResult {
  status: Exclude<IteStatus, "pending" | "failed">;
  /** Registry details when found (inspection date, result, registry name...). */
  details?: Record<string, unknown>;
}

export interface IteSource {
  lookup(input: SourceInput & { facts: CadastreFacts }): Promise<SourceOutcome<IteResult>>;
}

export interface Sources {
  cadastre: CadastreSource;
  energyCertificate: EnergyCertificateSource;
  ite: IteSource;
}
