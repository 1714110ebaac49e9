// The enrichment engine: cadastre → (energy certificate ∥ ITE) → derived fields, on an in-memory
// draft of a property. It knows no database and no queue: the caller gives it the state it has
// stored and the registers, lets it run until a deadline, and writes the draft's fields, source
// states and new attempt records itself (lib/properties).
import { z } from "zod";
import {
  addYears,
  certificateExpired,
  certificateValidity,
  EMPTY_DATA,
  iteOverdue,
  SOURCE_STATUSES,
  SOURCES,
  type EnergyCertificate,
  type Ite,
  type IteStatus,
  type Mode,
  type PropertyData,
  type PropertyStatus,
  type SourceName,
  type SourceStatus,
  type Use,
} from "@/lib/domain";
import { ccaaForProvince, climateZoneForMunicipality, municipalityByIne, provinceByCode } from "@/lib/reference-data";
import { estimateEnergyCertificate } from "./estimate";
import { firstDueOn, RENEWAL_YEARS } from "./sources/ite/rules";
import {
  CadastreFacts,
  Provider,
  PROVIDERS,
  type IteFinding,
  type RegistryCertificate,
  type SourceErrorCode,
  type SourceOutcome,
  type Sources,
} from "./sources/types";

export type Trigger = "inline" | "job";

/**
 * A short summary of a register's answer, for operators and the portal timeline: its outcome and
 * the register's own members for an answer, the message for a failure.
 */
export const SourceSummary = z.looseObject({
  outcome: z.enum(["found", "not_found"]).optional(),
  message: z.string().optional(),
});
export type SourceSummary = z.infer<typeof SourceSummary>;

/** What the cadastre said, kept with the property for later runs: they need it to ask the other registers. */
export const StoredFacts = z.object({ cadastre: CadastreFacts.optional() });
export type StoredFacts = z.infer<typeof StoredFacts>;

export interface SourceState {
  status: SourceStatus;
  attempts: number;
  lastError: string | null;
  lastDurationMs: number | null;
  /** Which register answered last (the Property's enrichment.<source>.provider). */
  provider: Provider | null;
  summary: SourceSummary | null;
  updatedAt: Date;
}

/**
 * A source's state as stored (its jsonb summary and text provider), decoded: the one place stored
 * state re-enters the engine, so a row off these schemas fails here, by name, not deep in a run.
 */
export const StoredSourceState = z.object({
  status: z.enum(SOURCE_STATUSES),
  attempts: z.number(),
  lastError: z.string().nullable(),
  lastDurationMs: z.number().nullable(),
  provider: Provider.nullable(),
  summary: SourceSummary.nullable(),
  updatedAt: z.date(),
});

/** One attempt at one source, as the attempt log records it. */
export interface AttemptRecord {
  source: SourceName;
  attempt: number;
  trigger: Trigger;
  outcome: "completed" | "not_found" | "error" | "timeout";
  error: SourceErrorCode | null;
  provider: Provider | null;
  startedAt: Date;
  durationMs: number;
}

/** A property being enriched, in memory. */
export interface Draft {
  reference: string;
  mode: Mode;
  /** The Property's members as far as known (what gets written). */
  data: PropertyData;
  facts: StoredFacts;
  sources: Record<SourceName, SourceState>;
  /** Attempts made by this run (the stored log holds the earlier ones). */
  attempts: AttemptRecord[];
  /** Sources whose lookup is under way (start time), so a deadline can close them as timeouts. */
  inFlight: Map<SourceName, Date>;
  /** Set when the run ends: outcomes arriving later are ignored. */
  closed: boolean;
}

const TIMEOUT = { kind: "error", code: "timeout", message: "deadline reached" } as const;

/** What a stored property gives a later run: its data, the cadastre's facts and its source states. */
export interface StoredState {
  data: PropertyData;
  facts: StoredFacts;
  sources: Partial<Record<SourceName, SourceState>>;
}

/** A new property's draft, or (with `stored`) the draft of one enriched before. */
export function newDraft(reference: string, mode: Mode, stored?: StoredState, now = new Date()): Draft {
  const pending = (): SourceState => ({
    status: "pending",
    attempts: 0,
    lastError: null,
    lastDurationMs: null,
    provider: null,
    summary: null,
    updatedAt: now,
  });
  return {
    reference,
    mode,
    data: { ...EMPTY_DATA, ...stored?.data },
    facts: { ...stored?.facts },
    sources: { cadastre: pending(), energy_certificate: pending(), ite: pending(), ...stored?.sources },
    attempts: [],
    inFlight: new Map(),
    closed: false,
  };
}

const factsOf = (draft: Draft) => draft.facts.cadastre;

// ---- effects of outcomes on the draft (pure) ----

/** Catastro's `luso` labels (and the words in them) → the contract's normalised use. */
const USE_PATTERNS: [RegExp, Use][] = [
  [/residencial|vivienda/i, "residential"],
  [/almac[eé]n|estacionamiento|aparcamiento|garaje|trastero/i, "parking_storage"],
  [/comercial|comercio/i, "commercial"],
  [/oficina/i, "office"],
  [/industrial/i, "industrial"],
  [/ocio|hosteler[ií]a|hotel|espect[aá]culo/i, "hospitality_leisure"],
  [/religios/i, "religious"],
  [/deportiv/i, "sports"],
  [/sanidad|beneficencia|cultural|edificio singular|enseñanza|docente|p[uú]blic/i, "public_services"],
  [/agrari|agr[ií]cola|ganader|forestal/i, "agricultural"],
  [/suelo|sin edificar|urbanizaci[oó]n|jardiner[ií]a/i, "land"],
];

export function normalizeUse(label: string | null): Use | null {
  if (!label) return null;
  return USE_PATTERNS.find(([pattern]) => pattern.test(label))?.[1] ?? "other";
}

/** Names from our reference tables (proper case, official) when the INE codes are known. */
function applyCadastre(draft: Draft, facts: CadastreFacts) {
  const province = facts.provinceCode ? provinceByCode(facts.provinceCode) : null;
  const municipality = facts.municipalityCode ? municipalityByIne(facts.municipalityCode) : null;
  Object.assign(draft.data, {
    address: facts.address,
    municipality: municipality?.name ?? facts.municipality,
    province: province?.name ?? facts.province,
    ccaa: facts.provinceCode ? ccaaForProvince(facts.provinceCode) : null,
    climate_zone: facts.municipalityCode ? climateZoneForMunicipality(facts.municipalityCode) : null,
    year_built: facts.yearBuilt,
    use: normalizeUse(facts.use),
    use_label: facts.use,
    built_area_m2: facts.surfaceM2,
    plot_area_m2: facts.plotAreaM2 ?? null,
    units_in_parcel: facts.units ?? null,
    // Staircase, floor and door belong to a unit's reference, not to a parcel's.
    unit: draft.reference.length === 20 ? (facts.unit ?? null) : null,
    postal_code: facts.postalCode ?? null,
    municipality_code: facts.municipalityCode,
    location: facts.location ?? null,
  } satisfies Partial<PropertyData>);
  draft.facts = { ...draft.facts, cadastre: facts };
}

function applyEstimate(draft: Draft) {
  const facts = factsOf(draft);
  if (!facts) return;
  const { climate_zone: climateZone, ccaa } = draft.data;
  const { yearBuilt, use } = facts;
  draft.data.energy_certificate = estimateEnergyCertificate({ yearBuilt, climateZone, use, ccaa });
}

/**
 * A registry's certificate as the Property shows it: validity completed (the registry's end, else
 * derived from the issue date, never from a registration date), expiry as of `now`.
 */
export function certificateOf(c: RegistryCertificate, now: Date): EnergyCertificate {
  const { validUntil, source } = certificateValidity(c);
  return {
    rating: c.rating,
    source: "registry",
    emissions_rating: c.emissionsRating,
    primary_energy_kwh_m2_year: c.primaryEnergyKwhM2Year,
    emissions_kg_co2_m2_year: c.emissionsKgCo2M2Year,
    issued_on: c.issuedOn,
    registered_on: c.registeredOn ?? null,
    valid_until: validUntil,
    valid_until_source: source,
    expired: certificateExpired(validUntil, now),
    scope: c.scope,
    registry: c.registry,
    certificate_id: c.certificateId,
    probabilities: null,
    confidence: null,
    basis: null,
    plausible_range: null,
  };
}

/** An inspection answer as the Property shows it; the next due date from the record or the rules. */
function iteOf(status: IteStatus, finding: IteFinding | null, data: PropertyData, now: Date): Ite {
  const inspectedOn = finding?.inspectedOn ?? null;
  const nextDueOn =
    finding?.nextDueOn ?? (inspectedOn ? addYears(inspectedOn, RENEWAL_YEARS) : firstDueOn(data.ccaa, data.year_built));
  return {
    status,
    inspected_on: inspectedOn,
    result: finding?.result ?? null,
    next_due_on: nextDueOn,
    overdue: iteOverdue(nextDueOn, now),
    registry: finding?.registry ?? null,
    reference: finding?.reference ?? null,
  };
}

/** Without a cadastre answer the other sources cannot run: they end with the cadastre. */
function settleWithoutCadastre(draft: Draft, status: SourceStatus, reason: string, ite: IteStatus, now: Date) {
  for (const name of ["energy_certificate", "ite"] as const) {
    const s = draft.sources[name];
    if (s.status !== "pending") continue;
    draft.sources[name] = {
      ...s,
      status,
      lastError: status === "failed" ? reason : null,
      summary: { skipped: reason },
      updatedAt: now,
    };
  }
  draft.data.ite_fetch_status = ite;
}

/** Effects of a source that exhausted its retries. */
function giveUp(draft: Draft, source: SourceName, now: Date) {
  if (source === "cadastre") settleWithoutCadastre(draft, "failed", "cadastre_unavailable", "failed", now);
  if (source === "ite") draft.data.ite_fetch_status = "failed";
  // The registry never answered, but an estimate is still better than nothing; the source stays failed.
  if (source === "energy_certificate") applyEstimate(draft);
}

/** What each source's lookup finds. */
interface Findings {
  cadastre: CadastreFacts;
  energy_certificate: RegistryCertificate;
  ite: IteFinding;
}

/** A definite answer (found or not found) of source `S`. */
type Answer<S extends SourceName> = Exclude<SourceOutcome<Findings[S]>, { kind: "error" }>;

/**
 * Each source's effects of a definite answer; each returns the provider to record (an estimate's,
 * where one replaced a missing certificate). A table by source, so each answer keeps its own type.
 */
const EFFECTS: { [S in SourceName]: (draft: Draft, outcome: Answer<S>, now: Date) => Provider } = {
  cadastre(draft, outcome, now) {
    if (outcome.kind === "found") applyCadastre(draft, outcome.data);
    else settleWithoutCadastre(draft, "completed", "reference_not_found", "not_found", now);
    return outcome.provider;
  },
  energy_certificate(draft, outcome, now) {
    if (outcome.kind === "found") draft.data.energy_certificate = certificateOf(outcome.data, now);
    else {
      applyEstimate(draft);
      // Test mode names the sandbox whatever answered; live, the estimate answered in the registry's stead.
      if (draft.data.energy_certificate && outcome.provider !== PROVIDERS.sandbox) return PROVIDERS.estimate;
    }
    return outcome.provider;
  },
  ite(draft, outcome, now) {
    const finding = outcome.kind === "found" ? outcome.data : null;
    draft.data.ite_fetch_status = finding?.status ?? "not_found";
    draft.data.ite = iteOf(draft.data.ite_fetch_status, finding, draft.data, now);
    return outcome.provider;
  },
};

/** Records one attempt's outcome in the draft (status, attempt log, effects). */
function record<S extends SourceName>(
  draft: Draft,
  source: S,
  outcome: SourceOutcome<Findings[S]>,
  startedAt: Date,
  trigger: Trigger,
  maxAttempts: number,
) {
  if (draft.closed) return;
  draft.inFlight.delete(source);
  const now = new Date();
  const prev = draft.sources[source];
  const number = prev.attempts + 1;
  const durationMs = now.getTime() - startedAt.getTime();
  // A failure the register will never get past (a malformed request) is not retried.
  const failedForGood = outcome.kind === "error" && (outcome.permanent === true || number >= maxAttempts);
  const provider =
    outcome.kind === "error" ? (outcome.provider ?? prev.provider) : EFFECTS[source](draft, outcome, now);
  draft.sources[source] = {
    status: outcome.kind === "error" ? (failedForGood ? "failed" : "pending") : "completed",
    attempts: number,
    lastError: outcome.kind === "error" ? outcome.code : null,
    lastDurationMs: durationMs,
    provider,
    summary:
      outcome.kind === "error"
        ? { message: outcome.message.slice(0, 300) }
        : { outcome: outcome.kind, ...outcome.summary },
    updatedAt: now,
  };
  draft.attempts.push({
    source,
    attempt: number,
    trigger,
    outcome:
      outcome.kind === "error"
        ? outcome.code === "timeout"
          ? "timeout"
          : "error"
        : outcome.kind === "found"
          ? "completed"
          : "not_found",
    error: outcome.kind === "error" ? outcome.code : null,
    provider: outcome.provider ?? null,
    startedAt,
    durationMs,
  });
  if (failedForGood) giveUp(draft, source, now);
}

/**
 * After the last scheduled run, a source still pending (skipped by a crash or a run's deadline) has
 * failed; `reason` when something else ended the retries (the organisation's live access).
 */
export function giveUpPending(draft: Draft, now = new Date(), reason = "retries_exhausted"): void {
  for (const source of SOURCES) {
    const state = draft.sources[source];
    if (state.status !== "pending") continue; // read afresh: giving up on the cadastre settles the others
    draft.sources[source] = {
      ...state,
      status: "failed",
      lastError: reason === "retries_exhausted" ? (state.lastError ?? reason) : reason,
      updatedAt: now,
    };
    giveUp(draft, source, now);
  }
}

// ---- running the steps ----

export interface RunOptions {
  sources: Sources;
  trigger: Trigger;
  maxAttempts: number;
  /** Told of a bug in a step (a source's failure is an outcome, never this); the run ends with what it has. */
  onError(error: unknown): void;
}

type Lookup<T> = (input: {
  reference: string;
  mode: Mode;
  attempt: number;
  signal: AbortSignal;
  trigger: Trigger;
}) => Promise<SourceOutcome<T>>;

async function attempt<S extends SourceName>(
  draft: Draft,
  source: S,
  options: RunOptions & { signal: AbortSignal },
  lookup: Lookup<Findings[S]>,
) {
  if (options.signal.aborted || draft.sources[source].status !== "pending") return;
  const startedAt = new Date();
  draft.inFlight.set(source, startedAt);
  let outcome: SourceOutcome<Findings[S]>;
  try {
    // A register that ignores the abort must not hold the run: at the deadline the attempt is a timeout.
    outcome = await Promise.race([
      lookup({
        reference: draft.reference,
        mode: draft.mode,
        attempt: draft.sources[source].attempts + 1,
        signal: options.signal,
        trigger: options.trigger,
      }),
      new Promise<SourceOutcome<Findings[S]>>((resolve) =>
        options.signal.addEventListener("abort", () => resolve(TIMEOUT), { once: true }),
      ),
    ]);
  } catch (error) {
    outcome = options.signal.aborted
      ? TIMEOUT
      : { kind: "error", code: "internal", message: error instanceof Error ? error.message : String(error) };
  }
  record(draft, source, outcome, startedAt, options.trigger, options.maxAttempts);
}

async function runSteps(draft: Draft, options: RunOptions & { signal: AbortSignal }): Promise<void> {
  await attempt(draft, "cadastre", options, (input) => options.sources.cadastre.lookup(input));
  const facts = factsOf(draft);
  if (!facts || options.signal.aborted) return;
  await Promise.all([
    attempt(draft, "energy_certificate", options, (input) =>
      options.sources.energyCertificate.lookup({ ...input, facts }),
    ),
    attempt(draft, "ite", options, (input) => options.sources.ite.lookup({ ...input, facts })),
  ]);
}

/** Runs the pending sources until done or `deadlineAt`; what is still in flight then is a timeout. */
export async function runUntil(draft: Draft, options: RunOptions, deadlineAt: number): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, deadlineAt - Date.now()));
  const steps = runSteps(draft, { ...options, signal: controller.signal }).catch(options.onError);
  const deadline = new Promise<void>((resolve) =>
    controller.signal.addEventListener("abort", () => resolve(), { once: true }),
  );
  await Promise.race([steps, deadline]);
  clearTimeout(timer);
  for (const [source, startedAt] of [...draft.inFlight])
    record(draft, source, TIMEOUT, startedAt, options.trigger, options.maxAttempts);
  draft.closed = true;
}

/** The property's final status once no source is pending, else null (still enriching). */
export function finalStatus(draft: Pick<Draft, "sources">): PropertyStatus | null {
  const states = Object.values(draft.sources);
  if (!states.every((s) => s.status !== "pending")) return null;
  const cadastre = draft.sources.cadastre;
  if (cadastre.status === "completed" && cadastre.summary?.outcome === "not_found") return "not_found";
  return states.some((s) => s.status === "failed") ? "partially_enriched" : "enriched";
}
