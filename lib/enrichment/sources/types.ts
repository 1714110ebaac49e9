// The one interface every register implements, live (real registers) or sandbox (test mode).
import { z } from "zod";
import { CERTIFICATE_SCOPES, ITE_RESULTS, ITE_STATUSES, Location, RATINGS, type Mode, Unit } from "@/lib/domain";
import type { LiveProvider, Provider } from "./providers";

export { indexProvider, PROVIDERS, Provider, type LiveProvider } from "./providers";

/** What the cadastre tells us about a unit or parcel; later steps derive everything else from it. */
export const CadastreFacts = z.object({
  /** The reference the answer is about (20 characters when a unit was resolved). */
  reference: z.string(),
  /** urban (UR) or rustic (RU) */
  kind: z.enum(["urban", "rustic"]).nullable(),
  address: z.string().nullable(),
  /** Municipality and province names as the register gives them. */
  municipality: z.string().nullable(),
  province: z.string().nullable(),
  /** INE codes: 2-digit province, 5-digit municipality (from `loine`). */
  provinceCode: z.string().nullable(),
  municipalityCode: z.string().nullable(),
  /** Main use as Catastro labels it (`luso`), e.g. "Residencial"; for a parcel, the use with the largest built area. */
  use: z.string().nullable(),
  /** Built surface (`sfc`), m²; for a parcel the sum over its units. */
  surfaceM2: z.number().nullable(),
  yearBuilt: z.number().nullable(),
  /** Number of units when a 14-character parcel was asked for. */
  units: z.number().optional(),
  /** Plot surface (`finca.dff.ss`), m², when given. */
  plotAreaM2: z.number().nullable().optional(),
  /** Staircase, floor and door (`loint`) of a unit. */
  unit: Unit.nullable().optional(),
  /** `dp`, 5 digits. */
  postalCode: z.string().nullable().optional(),
  /** The parcel's point (Consulta_CPMRC, WGS 84); null when the coordinates service did not answer. */
  location: Location.nullable().optional(),
  /** The street as Catastro files it (`dir.tv`, `dir.nv`, `dir.pnp`): how registers kept by address are matched. */
  street: z.object({ type: z.string(), name: z.string(), number: z.string() }).nullable().optional(),
});
/** What the cadastre tells us about a unit or parcel; later steps derive everything else from it. */
export type CadastreFacts = z.infer<typeof CadastreFacts>;

export interface SourceInput {
  /** Normalised reference as registered (14 or 20 characters). */
  reference: string;
  mode: Mode;
  /** 1 for the first try of this source for this property. */
  attempt: number;
  /** Aborted at the deadline (inline) or the job's time limit: stop and return quickly. */
  signal: AbortSignal;
  /** job: a durable run (retries and portfolios), held to register budgets; inline (default): a create's partner waits. */
  trigger?: "inline" | "job";
}

/** Runs lookups at a register under its circuit breaker (./breaker.ts keeps one per register). */
export interface RegisterGuard {
  guard<T>(provider: Provider, fetch: () => Promise<SourceOutcome<T>>): Promise<SourceOutcome<T>>;
  /**
   * The answer of an open breaker (null: closed, or its trial may be made), asked before a lookup
   * queues for a place among the register's requests in flight: those places may all be held by
   * requests sent before it opened, each running on to its own timeout.
   */
  refusal(provider: Provider): SourceOutcome<never> | null;
}

/** Who a register request is for: a create's partner waiting (interactive) or a durable run (portfolio, retry). */
export type BudgetUse = "interactive" | "durable";

/**
 * Requests per second each register may receive, shared by every process (lib/registers keeps it in
 * the database). Every request takes a grant; interactive ones come first.
 */
export interface RegisterBudget {
  /**
   * Resolves once one more request to `provider`'s register fits its budget, with the time
   * (`performance.now()`) by which it must be sent, else it needs another grant; null if `signal`
   * aborts first. `again`: for a request whose grant went stale, which asks ahead of the waiters
   * queued in its process (it holds a place among the requests in flight meanwhile).
   */
  take(provider: Provider, use: BudgetUse, signal: AbortSignal, again?: boolean): Promise<number | null>;
}

/**
 * A definite answer, or a failure: retried unless `permanent` (a request the register will never
 * answer, such as a malformed one). Throwing counts as a retryable `error` with code `internal`.
 * `provider` names the register that answered (catastro-ovc, icaen-socrata, gva-wfs, aragon-gaodcore, rules, sandbox…).
 */
export type SourceOutcome<T> =
  | { kind: "found"; data: T; provider: Provider; summary?: Record<string, unknown> }
  | { kind: "not_found"; provider: Provider; summary?: Record<string, unknown> }
  | { kind: "error"; code: SourceErrorCode; message: string; provider?: Provider; permanent?: boolean };

/** Why a lookup failed: its transport, the register's answer, or our own guard. */
export type SourceErrorCode =
  | "timeout"
  | "network"
  | "redirect"
  | "malformed"
  | "upstream_html"
  /** A WFS ExceptionReport (an XML answer to a bad request, even with HTTP 200). */
  | "wfs_exception"
  | `upstream_status_${number}`
  /** Catastro's own error, by its `cod`. */
  | `catastro_${string}`
  /** A register's breaker is open. */
  | "register_unavailable"
  /** The sandbox's simulated outage. */
  | "registry_unavailable"
  /** The lookup threw: a bug, retried. */
  | "internal";

export interface CadastreSource {
  lookup(input: SourceInput): Promise<SourceOutcome<CadastreFacts>>;
}

/**
 * An official certificate as a registry gives it; the engine completes validity and expiry. Dates
 * are as the registry names them: the issue, the registration (a register that gives only that
 * gives no issue date), the end of validity.
 */
export const RegistryCertificate = z.object({
  rating: z.enum(RATINGS),
  emissionsRating: z.enum(RATINGS).nullable(),
  primaryEnergyKwhM2Year: z.number().nullable(),
  emissionsKgCo2M2Year: z.number().nullable(),
  issuedOn: z.string().nullable(),
  /** Optional: index records written before it was read have none. */
  registeredOn: z.string().nullish(),
  validUntil: z.string().nullable(),
  scope: z.enum(CERTIFICATE_SCOPES),
  registry: z.string(),
  certificateId: z.string().nullable(),
});
export type RegistryCertificate = z.infer<typeof RegistryCertificate>;

/** `not_found` makes the engine estimate a rating. */
export interface EnergyCertificateSource {
  lookup(input: SourceInput & { facts: CadastreFacts }): Promise<SourceOutcome<RegistryCertificate>>;
}

/** An inspection-registry answer; the engine works out the next due date. */
export const IteFinding = z.object({
  status: z.enum(ITE_STATUSES).exclude(["pending", "failed", "not_found"]),
  inspectedOn: z.string().nullish(),
  result: z.enum(ITE_RESULTS).nullish(),
  /** When the registry itself says when the next inspection is due. */
  nextDueOn: z.string().nullish(),
  registry: z.string().nullish(),
  reference: z.string().nullish(),
});
export type IteFinding = z.infer<typeof IteFinding>;

/** `not_found`: the registry was asked and holds no inspection of the building. */
export interface IteSource {
  lookup(input: SourceInput & { facts: CadastreFacts }): Promise<SourceOutcome<IteFinding>>;
}

export interface Sources {
  cadastre: CadastreSource;
  energyCertificate: EnergyCertificateSource;
  ite: IteSource;
}

/**
 * A record of the local register index: which dataset, as of when (the publisher's snapshot date),
 * read when (the copy's import), from which line, under which licence.
 */
export interface IndexHit<T> extends Provenance {
  data: T;
  dataset: string;
  asOf: string | null;
  retrievedAt: string | null;
  sourceRow: number;
}

/**
 * The local copy of open register datasets (lib/registers), asked before the live registries. The
 * composition root passes it in; the engine and the sources know only this interface.
 * `certificate`: the newest certificate of the unit (its first 18 characters), else the newest
 * certificate of the whole building registered under the parcel (`scope: building`).
 */
export interface RegisterIndex {
  /** The cadastre's facts from Catastro's bulk copies, when they hold the reference whole (lib/registers). */
  cadastre(reference: string): Promise<CadastreIndexHit | null>;
  certificate(query: { parcel: string; unit: string | null }): Promise<IndexHit<RegistryCertificate> | null>;
  /** The building's inspection by parcel; failing that, by its street address (`addressKey`, lib/addresses) where a city files them so. */
  inspection(query: { parcel: string; addressKey?: string | null }): Promise<IndexHit<IteFinding> | null>;
}

/** The cadastre index's answer, and the copies that gave it (source, municipality, the publisher's date). */
export interface CadastreIndexHit {
  facts: CadastreFacts;
  answeredBy: { source: string; municipality: string; asOf: string | null }[];
}

/**
 * Whose data an answer is and what its use requires: the licence's name and the notice it asks for
 * (lib/registers' register modules state both). Stored in the answer's summary, so a Property says
 * it of every value (`enrichment.<source>.licence`, `attribution`).
 */
export interface Provenance {
  licence: string | null;
  attribution: string | null;
}

/** A regional register asked live for a unit's (or else its parcel's) certificate. */
export interface LiveCertificateClient {
  provider: LiveProvider;
  provenance: Provenance;
  lookup(
    query: { unit: string | null; parcel: string },
    timeoutMs: number,
  ): Promise<SourceOutcome<RegistryCertificate>>;
}

/** A regional register asked live for a building's inspection, by its parcel. */
export interface LiveInspectionClient {
  provider: LiveProvider;
  provenance: Provenance;
  /**
   * `codes`: it holds only codes of inspection reports found elsewhere (ICAEN's certificates), no
   * inspection register: a parcel without a code is `unsupported` (nothing is known), not `not_found`.
   */
  holds?: "codes";
  lookup(query: { parcel: string }, timeoutMs: number): Promise<SourceOutcome<IteFinding>>;
}

/** Where the cadastre's services are (its client is the engine's own, ./cadastre), and its provenance. */
export interface CadastreEndpoints {
  /** The WCF Callejero service root (without `/json/...`). Default: Catastro's. */
  baseUrl?: string;
  /** The WCF Coordenadas service root. Default: Catastro's. */
  coordinatesBaseUrl?: string;
  provenance?: Provenance;
}

/**
 * The live registers, made by the register modules (lib/registers/<id>/) from their settings: the
 * cadastre's endpoints, and which client answers each source in each province (province code →
 * client), handed to the live sources by the composition root.
 */
export interface LiveRegisters {
  cadastre: CadastreEndpoints;
  energyCertificate: ReadonlyMap<string, LiveCertificateClient>;
  ite: ReadonlyMap<string, LiveInspectionClient>;
}
