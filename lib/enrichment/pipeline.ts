// The enrichment pipeline: cadastre → (energy certificate ∥ ITE) → derived fields.
//
// A run works on an in-memory draft of the property and writes it in one transaction at its end:
// inline, the draft becomes the INSERT of the new property (with its durable job, if anything is
// left); in a durable job run, one UPDATE guarded by the run number, with the final status and the
// `property.enriched` event, or the next run. Few round trips, and a run that dies writes nothing
// (its job is retried).
import { and, eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { schema, type Db } from "@/lib/db";
import type { Config } from "@/lib/config";
import { enqueue, QUEUES, type Queue } from "@/lib/queue";
import { SOURCES, type EnergyCertificate, type IteStatus, type Mode, type PropertyStatus, type SourceName, type SourceStatus } from "@/drizzle/schema";
import { toPropertyJson, type PropertyRow, type SourceRow } from "@/lib/properties";
import { insertProperty } from "@/lib/properties/insert";
import { recordEvent } from "@/lib/webhooks/events";
import { ccaaForProvince, climateZoneForMunicipality } from "./derive";
import { estimateEnergyRating } from "./estimate";
import { provinceByCode, municipalityByIne } from "@/lib/reference-data";
import type { CadastreFacts, SourceOutcome, Sources } from "./sources/types";

const { properties, enrichmentSources, enrichmentAttempts } = schema;

export interface EnrichmentDeps {
  db: Db;
  queue: Queue;
  config: Config;
  sourcesFor(mode: Mode): Sources;
}

export type Trigger = "inline" | "job";

/** Retry delays (s) for a property's mode: test mode is compressed so sandbox scenarios end in seconds. */
export function retrySchedule(config: Config, mode: Mode): number[] {
  return mode === "test" ? config.ENRICHMENT_RETRY_SCHEDULE_TEST : config.ENRICHMENT_RETRY_SCHEDULE;
}

/** `base` seconds ± jitter, so retries of properties created together do not hit a register together. */
export function withJitter(base: number, jitter: number, random = Math.random): number {
  return Math.max(0, base * (1 + jitter * (2 * random() - 1)));
}

/** Delay of the first durable run: after the inline deadline, plus the first retry delay. */
export function firstRunDelaySeconds(config: Config, mode: Mode): number {
  return config.ENRICHMENT_DEADLINE_MS / 1000 + withJitter(retrySchedule(config, mode)[0] ?? 1, config.ENRICHMENT_RETRY_JITTER);
}

type Fields = Pick<PropertyRow, "address" | "municipality" | "province" | "ccaa" | "yearBuilt" | "climateZone" | "energyCertificate" | "iteFetchStatus" | "facts">;
type SourceState = Pick<SourceRow, "status" | "attempts" | "lastError" | "lastDurationMs" | "summary" | "updatedAt">;
type AttemptRow = Omit<typeof enrichmentAttempts.$inferInsert, "propertyId" | "id">;

/** A property being enriched, in memory. */
export interface Draft {
  reference: string;
  mode: Mode;
  fields: Fields;
  sources: Record<SourceName, SourceState>;
  attempts: AttemptRow[];
  /** Sources whose lookup is under way (start time), so a deadline can close them as timeouts. */
  inFlight: Map<SourceName, Date>;
  /** Set when the draft is written: outcomes arriving later are ignored. */
  closed: boolean;
}

const TIMEOUT = { kind: "error", code: "timeout", message: "deadline reached" } as const;

export function newDraft(reference: string, mode: Mode, now = new Date()): Draft {
  const pending = (): SourceState => ({ status: "pending", attempts: 0, lastError: null, lastDurationMs: null, summary: null, updatedAt: now });
  return {
    reference,
    mode,
    fields: { address: null, municipality: null, province: null, ccaa: null, yearBuilt: null, climateZone: null, energyCertificate: null, iteFetchStatus: "pending", facts: {} },
    sources: { cadastre: pending(), energy_certificate: pending(), ite: pending() },
    attempts: [],
    inFlight: new Map(),
    closed: false,
  };
}

function draftOf(property: PropertyRow, rows: SourceRow[]): Draft {
  const draft = newDraft(property.cadastralReference, property.mode);
  const { address, municipality, province, ccaa, yearBuilt, climateZone, energyCertificate, iteFetchStatus, facts } = property;
  draft.fields = { address, municipality, province, ccaa, yearBuilt, climateZone, energyCertificate, iteFetchStatus, facts };
  for (const r of rows) draft.sources[r.source] = { status: r.status, attempts: r.attempts, lastError: r.lastError, lastDurationMs: r.lastDurationMs, summary: r.summary, updatedAt: r.updatedAt };
  return draft;
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

// ---- running the steps ----

interface RunOptions {
  sources: Sources;
  trigger: Trigger;
  signal: AbortSignal;
  maxAttempts: number;
}

async function attempt<T>(draft: Draft, source: SourceName, options: RunOptions, lookup: (input: { reference: string; mode: Mode; attempt: number; signal: AbortSignal }) => Promise<SourceOutcome<T>>) {
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

async function runSteps(draft: Draft, options: RunOptions): Promise<void> {
  await attempt(draft, "cadastre", options, (input) => options.sources.cadastre.lookup(input));
  const facts = factsOf(draft);
  if (!facts || options.signal.aborted) return;
  await Promise.all([
    attempt(draft, "energy_certificate", options, (input) => options.sources.energyCertificate.lookup({ ...input, facts })),
    attempt(draft, "ite", options, (input) => options.sources.ite.lookup({ ...input, facts })),
  ]);
}

/** Runs the pending sources until done or `deadlineAt`; what is still in flight then is a timeout. */
export async function runUntil(draft: Draft, options: Omit<RunOptions, "signal">, deadlineAt: number): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, deadlineAt - Date.now()));
  const steps = runSteps(draft, { ...options, signal: controller.signal }).catch((error) => console.error("[enrich]", draft.reference, error));
  const deadline = new Promise<void>((resolve) => controller.signal.addEventListener("abort", () => resolve(), { once: true }));
  await Promise.race([steps, deadline]);
  clearTimeout(timer);
  for (const [source, startedAt] of [...draft.inFlight]) record(draft, source, TIMEOUT, startedAt, options.trigger, options.maxAttempts);
  draft.closed = true;
}

export function finalStatus(draft: Pick<Draft, "sources">): PropertyStatus | null {
  const states = Object.values(draft.sources);
  if (!states.every((s) => s.status !== "pending")) return null;
  const cadastre = draft.sources.cadastre;
  if (cadastre.status === "completed" && (cadastre.summary as { outcome?: string } | null)?.outcome === "not_found") return "not_found";
  return states.some((s) => s.status === "failed") ? "partially_enriched" : "enriched";
}

const maxAttemptsFor = (config: Config, mode: Mode) => retrySchedule(config, mode).length + 1;

// ---- inline (create) ----

/**
 * The rows a new property's draft is written as. Everything is known here, the id and the times
 * too, so the answer is built from them and nothing needs reading back.
 */
export function rowsOfNewProperty(draft: Draft, scope: { partnerId: string; mode: Mode }, status: PropertyStatus | null, now = new Date()) {
  const property: PropertyRow = {
    id: randomUUID(),
    partnerId: scope.partnerId,
    mode: scope.mode,
    cadastralReference: draft.reference,
    ...draft.fields,
    status: status ?? "enriching",
    enrichmentRun: 1,
    createdAt: now,
    updatedAt: now,
    enrichedAt: status ? now : null,
  };
  return { property, ...childRowsOf(draft, property.id) };
}

/** A draft's three source rows and its new attempt-log rows. */
function childRowsOf(draft: Draft, propertyId: string) {
  const sources: SourceRow[] = SOURCES.map((source) => ({ propertyId, source, ...draft.sources[source] }));
  const attempts = draft.attempts.map((a) => ({ ...a, propertyId }));
  return { sources, attempts };
}

/**
 * Enriches a new property until `deadlineAt`, then writes it, its source rows and its attempts in
 * one statement, and, if anything is left, its durable job in the same transaction. Null when the
 * reference was registered meanwhile by a concurrent request (the caller returns the existing property).
 */
export async function createEnriched(deps: EnrichmentDeps, scope: { partnerId: string; mode: Mode }, reference: string, deadlineAt: number) {
  const draft = newDraft(reference, scope.mode);
  await runUntil(draft, { sources: deps.sourcesFor(scope.mode), trigger: "inline", maxAttempts: maxAttemptsFor(deps.config, scope.mode) }, deadlineAt);
  const status = finalStatus(draft);
  const { property, sources, attempts } = rowsOfNewProperty(draft, scope, status);
  // Finished inline: final at the response, nothing to announce. Otherwise the durable job
  // (committed with the row) retries what is left and announces the end.
  const created = status
    ? await insertProperty(deps.db, property, sources, attempts)
    : await deps.db.transaction(async (tx) => {
        if (!(await insertProperty(tx, property, sources, attempts))) return false;
        await enqueue(deps.queue, tx, QUEUES.enrich, { propertyId: property.id, run: 1 }, { delaySeconds: firstRunDelaySeconds(deps.config, scope.mode) });
        return true;
      });
  return created ? toPropertyJson(property, sources) : null;
}

// ---- durable runs ----

/** A run's own time limit; well under the queue's expiry so a live worker is never presumed dead. */
export const RUN_DEADLINE_MS = 30_000;

class StaleRun extends Error {}

/**
 * One durable run (job `run` of a property): retries the pending sources, then in one transaction
 * writes the results and either finishes (final status + `property.enriched`) or schedules the next
 * run. A job whose run number is not the property's current one is stale and does nothing.
 */
export async function runEnrichmentJob(deps: EnrichmentDeps, propertyId: string, run: number): Promise<void> {
  // The property with its source rows in one round trip.
  const read = await deps.db
    .select({ property: properties, source: enrichmentSources })
    .from(properties)
    .innerJoin(enrichmentSources, eq(enrichmentSources.propertyId, properties.id))
    .where(eq(properties.id, propertyId));
  const property = read[0]?.property;
  if (!property || property.status !== "enriching" || property.enrichmentRun !== run) return;
  const draft = draftOf(property, read.map((r) => r.source));
  const schedule = retrySchedule(deps.config, property.mode);
  const deadline = Date.now() + Math.min(RUN_DEADLINE_MS, (deps.config.JOB_EXPIRE_SECONDS * 1000) / 2);
  await runUntil(draft, { sources: deps.sourcesFor(property.mode), trigger: "job", maxAttempts: schedule.length + 1 }, deadline);

  let status = finalStatus(draft);
  if (!status && run >= schedule.length) {
    // Last run and still pending (a source skipped by a crash or the run's deadline): give up on it.
    const now = new Date();
    for (const source of SOURCES) {
      if (draft.sources[source].status !== "pending") continue;
      draft.sources[source] = { ...draft.sources[source], status: "failed", lastError: draft.sources[source].lastError ?? "retries_exhausted", updatedAt: now };
      giveUp(draft, source, now);
    }
    status = finalStatus(draft);
  }

  try {
    await deps.db.transaction(async (tx) => {
      const now = new Date();
      const [updated] = await tx
        .update(properties)
        .set({ ...draft.fields, updatedAt: now, ...(status ? { status, enrichedAt: now } : { enrichmentRun: run + 1 }) })
        .where(and(eq(properties.id, propertyId), eq(properties.status, "enriching"), eq(properties.enrichmentRun, run)))
        .returning();
      if (!updated) throw new StaleRun();
      // The three source rows in one statement (they exist: the upsert only ever updates).
      const { sources, attempts } = childRowsOf(draft, propertyId);
      await tx
        .insert(enrichmentSources)
        .values(sources)
        .onConflictDoUpdate({
          target: [enrichmentSources.propertyId, enrichmentSources.source],
          set: {
            status: sql`excluded.status`,
            attempts: sql`excluded.attempts`,
            lastError: sql`excluded.last_error`,
            lastDurationMs: sql`excluded.last_duration_ms`,
            summary: sql`excluded.summary`,
            updatedAt: sql`excluded.updated_at`,
          },
        });
      if (attempts.length) await tx.insert(enrichmentAttempts).values(attempts);
      if (status) {
        await recordEvent(tx, deps.queue, { partnerId: updated.partnerId, mode: updated.mode, type: "property.enriched", propertyId, payload: toPropertyJson(updated, sources) });
      } else {
        await enqueue(deps.queue, tx, QUEUES.enrich, { propertyId, run: run + 1 }, { delaySeconds: withJitter(schedule[run]!, deps.config.ENRICHMENT_RETRY_JITTER) });
      }
    });
  } catch (error) {
    if (!(error instanceof StaleRun)) throw error;
  }
}

