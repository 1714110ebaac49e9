// The enrichment engine: cadastre → (energy certificate ∥ ITE) → derived fields, on an in-memory
// draft of a property. It knows no database and no queue: the caller gives it the state it has
// stored and the registers, lets it run until a deadline, and writes the draft's fields, source
// states and new attempt records itself (lib/properties).
import { SOURCES, type EnergyCertificate, type IteStatus, type Mode, type PropertyStatus, type SourceName, type SourceStatus } from "@/lib/domain";
import { municipalityByIne, provinceByCode } from "@/lib/reference-data";
import { ccaaForProvince, climateZoneForMunicipality } from "./derive";
import { estimateEnergyRating } from "./estimate";
import type { CadastreFacts, SourceOutcome, Sources } from "./sources/types";

export type Trigger = "inline" | "job";

/** What the engine works out about a property (the Property's data members, and the facts later steps need). */
export interface EnrichedFields {
  address: string | null;
  municipality: string | null;
  province: string | null;
  ccaa: string | null;
  yearBuilt: number | null;
  climateZone: string | null;
  energyCertificate: EnergyCertificate | null;
  iteFetchStatus: IteStatus;
  /** Facts the cadastre gave that the Property does not expose but later steps and runs need. */
  facts: Record<string, unknown>;
}

export interface SourceState {
  status: SourceStatus;
  attempts: number;
  lastError: string | null;
  lastDurationMs: number | null;
  /** A short summary of the register's answer, for operators and the portal timeline. */
  summary: Record<string, unknown> | null;
  updatedAt: Date;
}

/** One attempt at one source, as the attempt log records it. */
export interface AttemptRecord {
  source: SourceName;
  attempt: number;
  trigger: Trigger;
  outcome: "completed" | "not_found" | "error" | "timeout";
  error: string | null;
  startedAt: Date;
  durationMs: number;
}

/** A property being enriched, in memory. */
export interface Draft {
  reference: string;
  mode: Mode;
  fields: EnrichedFields;
  sources: Record<SourceName, SourceState>;
  /** Attempts made by this run (the stored log holds the earlier ones). */
  attempts: AttemptRecord[];
  /** Sources whose lookup is under way (start time), so a deadline can close them as timeouts. */
  inFlight: Map<SourceName, Date>;
  /** Set when the run ends: outcomes arriving later are ignored. */
  closed: boolean;
}

const TIMEOUT = { kind: "error", code: "timeout", message: "deadline reached" } as const;

/** A new property's draft, or (with `stored`) the draft of one enriched before. */
export function newDraft(reference: string, mode: Mode, stored?: { fields: EnrichedFields; sources: Partial<Record<SourceName, SourceState>> }, now = new Date()): Draft {
  const pending = (): SourceState => ({ status: "pending", attempts: 0, lastError: null, lastDurationMs: null, summary: null, updatedAt: now });
  return {
    reference,
    mode,
    fields: stored
      ? { ...stored.fields }
      : { address: null, municipality: null, province: null, ccaa: null, yearBuilt: null, climateZone: null, energyCertificate: null, iteFetchStatus: "pending", facts: {} },
    sources: { cadastre: pending(), energy_certificate: pending(), ite: pending(), ...stored?.sources },
    attempts: [],
    inFlight: new Map(),
    closed: false,
  };
}

const factsOf = (draft: Draft) => (draft.fields.facts as { cadastre?: CadastreFacts }).cadastre;

// ---- effects of outcomes on the draft (pure) ----

/** Names from our reference tables (proper case, official) when the INE codes are known. */
function applyCadastre(draft: Draft, facts: CadastreFacts) {
  const province = facts.provinceCode ? provinceByCode(facts.provinceCode) : null;
  const municipality = facts.municipalityCode ? municipalityByIne(facts.municipalityCode) : null;
  Object.assign(draft.fields, {
    address: facts.address,
    municipality: municipality?.name ?? facts.municipality,
    province: province?.name ?? facts.province,
    ccaa: facts.provinceCode ? ccaaForProvince(facts.provinceCode) : null,
    climateZone: facts.municipalityCode ? climateZoneForMunicipality(facts.municipalityCode) : null,
    yearBuilt: facts.yearBuilt,
    facts: { ...draft.fields.facts, cadastre: facts },
  });
}

function applyEstimate(draft: Draft) {
  const facts = factsOf(draft);
  if (facts) draft.fields.energyCertificate = estimateEnergyRating({ yearBuilt: facts.yearBuilt, climateZone: draft.fields.climateZone, use: facts.use });
}

/** Without a cadastre answer the other sources cannot run: they end with the cadastre. */
function settleWithoutCadastre(draft: Draft, status: SourceStatus, reason: string, ite: IteStatus, now: Date) {
  for (const name of ["energy_certificate", "ite"] as const) {
    const s = draft.sources[name];
    if (s.status !== "pending") continue;
    draft.sources[name] = { ...s, status, lastError: status === "failed" ? reason : null, summary: { skipped: reason }, updatedAt: now };
  }
  draft.fields.iteFetchStatus = ite;
}

/** Effects of a source that exhausted its retries. */
function giveUp(draft: Draft, source: SourceName, now: Date) {
  if (source === "cadastre") settleWithoutCadastre(draft, "failed", "cadastre_unavailable", "failed", now);
  if (source === "ite") draft.fields.iteFetchStatus = "failed";
  // The registry never answered, but an estimate is still better than nothing; the source stays failed.
  if (source === "energy_certificate") applyEstimate(draft);
}

function effects(draft: Draft, source: SourceName, outcome: Exclude<SourceOutcome<unknown>, { kind: "error" }>, now: Date) {
  if (source === "cadastre") {
    if (outcome.kind === "found") applyCadastre(draft, outcome.data as CadastreFacts);
    else settleWithoutCadastre(draft, "completed", "reference_not_found", "not_found", now);
  } else if (source === "energy_certificate") {
    if (outcome.kind === "found") draft.fields.energyCertificate = outcome.data as EnergyCertificate;
    else applyEstimate(draft);
  } else {
    draft.fields.iteFetchStatus = outcome.kind === "found" ? (outcome.data as { status: IteStatus }).status : "not_found";
  }
}

/** Records one attempt's outcome in the draft (status, attempt log, effects). */
function record(draft: Draft, source: SourceName, outcome: SourceOutcome<unknown>, startedAt: Date, trigger: Trigger, maxAttempts: number) {
  if (draft.closed) return;
  draft.inFlight.delete(source);
  const now = new Date();
  const prev = draft.sources[source];
  const number = prev.attempts + 1;
  const durationMs = now.getTime() - startedAt.getTime();
  const failedForGood = outcome.kind === "error" && number >= maxAttempts;
  draft.sources[source] = {
    status: outcome.kind === "error" ? (failedForGood ? "failed" : "pending") : "completed",
    attempts: number,
    lastError: outcome.kind === "error" ? outcome.code : null,
    lastDurationMs: durationMs,
    summary: outcome.kind === "error" ? { message: outcome.message.slice(0, 300) } : { outcome: outcome.kind, ...outcome.summary },
    updatedAt: now,
  };
  draft.attempts.push({
    source,
    attempt: number,
    trigger,
    outcome: outcome.kind === "error" ? (outcome.code === "timeout" ? "timeout" : "error") : outcome.kind === "found" ? "completed" : "not_found",
    error: outcome.kind === "error" ? outcome.code : null,
    startedAt,
    durationMs,
  });
  if (outcome.kind !== "error") effects(draft, source, outcome, now);
  else if (failedForGood) giveUp(draft, source, now);
}

/** After the last scheduled run, a source still pending (skipped by a crash or a run's deadline) has failed. */
export function giveUpPending(draft: Draft, now = new Date()): void {
  for (const source of SOURCES) {
    const state = draft.sources[source];
    if (state.status !== "pending") continue; // read afresh: giving up on the cadastre settles the others
    draft.sources[source] = { ...state, status: "failed", lastError: state.lastError ?? "retries_exhausted", updatedAt: now };
    giveUp(draft, source, now);
  }
}

// ---- running the steps ----

export interface RunOptions {
  sources: Sources;
  trigger: Trigger;
  maxAttempts: number;
}

type Lookup<T> = (input: { reference: string; mode: Mode; attempt: number; signal: AbortSignal }) => Promise<SourceOutcome<T>>;

async function attempt<T>(draft: Draft, source: SourceName, options: RunOptions & { signal: AbortSignal }, lookup: Lookup<T>) {
  if (options.signal.aborted || draft.sources[source].status !== "pending") return;
  const startedAt = new Date();
  draft.inFlight.set(source, startedAt);
  let outcome: SourceOutcome<T>;
  try {
    // A register that ignores the abort must not hold the run: at the deadline the attempt is a timeout.
    outcome = await Promise.race([
      lookup({ reference: draft.reference, mode: draft.mode, attempt: draft.sources[source].attempts + 1, signal: options.signal }),
      new Promise<SourceOutcome<T>>((resolve) => options.signal.addEventListener("abort", () => resolve(TIMEOUT), { once: true })),
    ]);
  } catch (error) {
    outcome = options.signal.aborted ? TIMEOUT : { kind: "error", code: "internal", message: error instanceof Error ? error.message : String(error) };
  }
  record(draft, source, outcome, startedAt, options.trigger, options.maxAttempts);
}

async function runSteps(draft: Draft, options: RunOptions & { signal: AbortSignal }): Promise<void> {
  await attempt(draft, "cadastre", options, (input) => options.sources.cadastre.lookup(input));
  const facts = factsOf(draft);
  if (!facts || options.signal.aborted) return;
  await Promise.all([
    attempt(draft, "energy_certificate", options, (input) => options.sources.energyCertificate.lookup({ ...input, facts })),
    attempt(draft, "ite", options, (input) => options.sources.ite.lookup({ ...input, facts })),
  ]);
}

/** Runs the pending sources until done or `deadlineAt`; what is still in flight then is a timeout. */
export async function runUntil(draft: Draft, options: RunOptions, deadlineAt: number): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, deadlineAt - Date.now()));
  const steps = runSteps(draft, { ...options, signal: controller.signal }).catch((error) => console.error("[enrich]", draft.reference, error));
  const deadline = new Promise<void>((resolve) => controller.signal.addEventListener("abort", () => resolve(), { once: true }));
  await Promise.race([steps, deadline]);
  clearTimeout(timer);
  for (const [source, startedAt] of [...draft.inFlight]) record(draft, source, TIMEOUT, startedAt, options.trigger, options.maxAttempts);
  draft.closed = true;
}

/** The property's final status once no source is pending, else null (still enriching). */
export function finalStatus(draft: Pick<Draft, "sources">): PropertyStatus | null {
  const states = Object.values(draft.sources);
  if (!states.every((s) => s.status !== "pending")) return null;
  const cadastre = draft.sources.cadastre;
  if (cadastre.status === "completed" && (cadastre.summary as { outcome?: string } | null)?.outcome === "not_found") return "not_found";
  return states.some((s) => s.status === "failed") ? "partially_enriched" : "enriched";
}
