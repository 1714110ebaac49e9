// The enrichment pipeline: cadastre → (energy certificate ∥ ITE) → derived fields, run inline under
// the create deadline and then by durable jobs until every source is final.
import { and, eq, sql } from "drizzle-orm";
import { schema, type Db, type DbOrTx } from "@/lib/db";
import type { Config } from "@/lib/config";
import { enqueue, QUEUES, type Queue } from "@/lib/queue";
import type { IteStatus, Mode, PropertyStatus, SourceName, SourceStatus } from "@/drizzle/schema";
import { toPropertyJson, type PropertyRow, type SourceRow } from "@/lib/properties";
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

interface RunState {
  property: PropertyRow;
  sources: Sources;
  trigger: Trigger;
  signal: AbortSignal;
  maxAttempts: number;
}

const isFinal = (s: SourceStatus) => s !== "pending";

async function loadSources(db: DbOrTx, propertyId: string): Promise<Map<SourceName, SourceRow>> {
  const rows = await db.select().from(enrichmentSources).where(eq(enrichmentSources.propertyId, propertyId));
  return new Map(rows.map((r) => [r.source, r]));
}

/**
 * Runs the unfinished sources of one property. Inline: stops waiting at `deadlineAt` (what is done is
 * saved); job: `run` must match the property's current run or the job is stale and does nothing.
 */
export async function enrichProperty(
  deps: EnrichmentDeps,
  propertyId: string,
  options: { trigger: Trigger; deadlineAt: number; run?: number },
): Promise<void> {
  const [property] = await deps.db.select().from(properties).where(eq(properties.id, propertyId)).limit(1);
  if (!property || property.status !== "enriching") return;
  if (options.trigger === "job" && property.enrichmentRun !== options.run) return;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, options.deadlineAt - Date.now()));
  const state: RunState = {
    property,
    sources: deps.sourcesFor(property.mode),
    trigger: options.trigger,
    signal: controller.signal,
    maxAttempts: retrySchedule(deps.config, property.mode).length + 1,
  };
  const steps = runSteps(deps, state).finally(() => clearTimeout(timer));
  if (options.trigger === "inline") {
    // The response never waits past the deadline; late steps see the abort and record a timeout.
    // An inline failure must not fail the create: the property and its job are already committed.
    const deadline = new Promise<void>((resolve) => controller.signal.addEventListener("abort", () => resolve(), { once: true }));
    await Promise.race([steps.catch((error) => console.error(`[enrich] inline ${propertyId}:`, error)), deadline]);
    return;
  }
  await steps;
  await finishRun(deps, state, options.run ?? 1);
}

async function runSteps(deps: EnrichmentDeps, state: RunState): Promise<void> {
  const { db } = deps;
  const id = state.property.id;
  let rows = await loadSources(db, id);
  let facts = (state.property.facts as { cadastre?: CadastreFacts }).cadastre;

  if (rows.get("cadastre")?.status === "pending") {
    const outcome = await attempt(deps, state, rows.get("cadastre")!, (input) => state.sources.cadastre.lookup(input), async (tx, o) => {
      if (o.kind === "found") await applyCadastre(tx, id, o.data);
      if (o.kind === "not_found") await settleWithoutCadastre(tx, id, "completed", "reference_not_found", "not_found");
    });
    if (outcome?.kind === "found") facts = outcome.data;
  }
  if (state.signal.aborted && state.trigger === "inline") return;
  rows = await loadSources(db, id);

  if (facts) {
    await Promise.all([
      rows.get("energy_certificate")?.status === "pending" &&
        attempt(deps, state, rows.get("energy_certificate")!, (input) => state.sources.energyCertificate.lookup({ ...input, facts }), async (tx, o) => {
          if (o.kind === "found") await tx.update(properties).set({ energyCertificate: o.data, updatedAt: new Date() }).where(eq(properties.id, id));
          if (o.kind === "not_found") await applyEstimate(tx, id, facts);
        }),
      rows.get("ite")?.status === "pending" &&
        attempt(deps, state, rows.get("ite")!, (input) => state.sources.ite.lookup({ ...input, facts }), async (tx, o) => {
          if (o.kind === "found") await setIte(tx, id, o.data.status);
          if (o.kind === "not_found") await setIte(tx, id, "not_found");
        }),
    ]);
  }
}

const TIMEOUT = { kind: "error", code: "timeout", message: "deadline reached" } as const;

function aborted<T>(signal: AbortSignal): Promise<SourceOutcome<T>> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(TIMEOUT);
    else signal.addEventListener("abort", () => resolve(TIMEOUT), { once: true });
  });
}

type Lookup<T> = (input: { reference: string; mode: Mode; attempt: number; signal: AbortSignal }) => Promise<SourceOutcome<T>>;

/** One attempt of one source: call it, then record the outcome, the attempt and its effects in one transaction. */
async function attempt<T>(
  deps: EnrichmentDeps,
  state: RunState,
  row: SourceRow,
  lookup: Lookup<T>,
  apply: (tx: DbOrTx, outcome: Exclude<SourceOutcome<T>, { kind: "error" }>) => Promise<void>,
): Promise<SourceOutcome<T> | null> {
  if (state.signal.aborted) return null;
  const number = row.attempts + 1;
  const startedAt = new Date();
  let outcome: SourceOutcome<T>;
  try {
    // A register that ignores the abort must not hold the run: at the deadline the attempt is a timeout.
    outcome = await Promise.race([
      lookup({ reference: state.property.cadastralReference, mode: state.property.mode, attempt: number, signal: state.signal }),
      aborted<T>(state.signal),
    ]);
  } catch (error) {
    outcome = state.signal.aborted
      ? TIMEOUT
      : { kind: "error", code: "internal", message: error instanceof Error ? error.message : String(error) };
  }
  const durationMs = Date.now() - startedAt.getTime();
  const failedForGood = outcome.kind === "error" && number >= state.maxAttempts;
  const status: SourceStatus = outcome.kind === "error" ? (failedForGood ? "failed" : "pending") : "completed";
  await deps.db.transaction(async (tx) => {
    await tx
      .update(enrichmentSources)
      .set({
        status,
        attempts: number,
        lastError: outcome.kind === "error" ? outcome.code : null,
        lastDurationMs: durationMs,
        summary: outcome.kind === "error" ? { message: outcome.message.slice(0, 300) } : { outcome: outcome.kind, ...outcome.summary },
        updatedAt: new Date(),
      })
      .where(and(eq(enrichmentSources.propertyId, row.propertyId), eq(enrichmentSources.source, row.source)));
    await tx.insert(enrichmentAttempts).values({
      propertyId: row.propertyId,
      source: row.source,
      attempt: number,
      trigger: state.trigger,
      outcome: outcome.kind === "error" ? (outcome.code === "timeout" ? "timeout" : "error") : outcome.kind === "found" ? "completed" : "not_found",
      error: outcome.kind === "error" ? outcome.code : null,
      startedAt,
      durationMs,
    });
    if (outcome.kind !== "error") await apply(tx, outcome);
    else if (failedForGood) await giveUp(tx, row.propertyId, row.source);
  });
  return outcome;
}

/** Names from our reference tables (proper case, official) when the INE codes are known. */
async function applyCadastre(tx: DbOrTx, id: string, facts: CadastreFacts) {
  const province = facts.provinceCode ? provinceByCode(facts.provinceCode) : null;
  const municipality = facts.municipalityCode ? municipalityByIne(facts.municipalityCode) : null;
  await tx
    .update(properties)
    .set({
      address: facts.address,
      municipality: municipality?.name ?? facts.municipality,
      province: province?.name ?? facts.province,
      ccaa: facts.provinceCode ? ccaaForProvince(facts.provinceCode) : null,
      climateZone: facts.municipalityCode ? climateZoneForMunicipality(facts.municipalityCode) : null,
      yearBuilt: facts.yearBuilt,
      facts: sql`${properties.facts} || ${JSON.stringify({ cadastre: facts })}::jsonb`,
      updatedAt: new Date(),
    })
    .where(eq(properties.id, id));
}

async function applyEstimate(tx: DbOrTx, id: string, facts: CadastreFacts) {
  const [row] = await tx.select({ climateZone: properties.climateZone }).from(properties).where(eq(properties.id, id));
  const estimate = estimateEnergyRating({ yearBuilt: facts.yearBuilt, climateZone: row?.climateZone ?? null, use: facts.use });
  await tx.update(properties).set({ energyCertificate: estimate, updatedAt: new Date() }).where(eq(properties.id, id));
}

async function setIte(tx: DbOrTx, id: string, status: IteStatus) {
  await tx.update(properties).set({ iteFetchStatus: status, updatedAt: new Date() }).where(eq(properties.id, id));
}

/** Without a cadastre answer the other sources cannot run: they end with the cadastre. */
async function settleWithoutCadastre(tx: DbOrTx, id: string, status: SourceStatus, reason: string, ite: IteStatus) {
  await tx
    .update(enrichmentSources)
    .set({ status, lastError: status === "failed" ? reason : null, summary: { skipped: reason }, updatedAt: new Date() })
    .where(and(eq(enrichmentSources.propertyId, id), sql`${enrichmentSources.source} <> 'cadastre'`, eq(enrichmentSources.status, "pending")));
  await setIte(tx, id, ite);
}

/** Effects of a source that exhausted its retries. */
async function giveUp(tx: DbOrTx, id: string, source: SourceName) {
  if (source === "cadastre") await settleWithoutCadastre(tx, id, "failed", "cadastre_unavailable", "failed");
  if (source === "ite") await setIte(tx, id, "failed");
  if (source === "energy_certificate") {
    // The registry never answered, but an estimate is still better than nothing; the source stays failed.
    const [row] = await tx.select({ facts: properties.facts }).from(properties).where(eq(properties.id, id));
    const facts = (row?.facts as { cadastre?: CadastreFacts } | undefined)?.cadastre;
    if (facts) await applyEstimate(tx, id, facts);
  }
}

function finalStatus(rows: SourceRow[]): PropertyStatus | null {
  if (!rows.every((r) => isFinal(r.status))) return null;
  const cadastre = rows.find((r) => r.source === "cadastre");
  if (cadastre?.status === "completed" && (cadastre.summary as { outcome?: string } | null)?.outcome === "not_found") return "not_found";
  return rows.some((r) => r.status === "failed") ? "partially_enriched" : "enriched";
}

/**
 * When every source is final: the final status, and the `property.enriched` event if the create
 * response went out before (one transaction; the status guard makes it happen once).
 */
export async function finalizeIfDone(deps: EnrichmentDeps, propertyId: string, announce: boolean): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const rows = [...(await loadSources(tx, propertyId)).values()];
    const status = finalStatus(rows);
    if (!status) return false;
    const now = new Date();
    const [done] = await tx
      .update(properties)
      .set({ status, enrichedAt: now, updatedAt: now })
      .where(and(eq(properties.id, propertyId), eq(properties.status, "enriching")))
      .returning();
    if (done && announce) {
      await recordEvent(tx, deps.queue, {
        partnerId: done.partnerId,
        mode: done.mode,
        type: "property.enriched",
        propertyId: done.id,
        payload: toPropertyJson(done, rows),
      });
    }
    return true;
  });
}

/** End of a durable run: finalize, or give up after the last run, or schedule the next run. */
async function finishRun(deps: EnrichmentDeps, state: RunState, run: number): Promise<void> {
  const id = state.property.id;
  if (await finalizeIfDone(deps, id, true)) return;
  const schedule = retrySchedule(deps.config, state.property.mode);
  if (run >= schedule.length) {
    // Last run and still pending (a source skipped by a crash or the job deadline): give up on it.
    await deps.db.transaction(async (tx) => {
      const pending = [...(await loadSources(tx, id)).values()].filter((r) => r.status === "pending");
      for (const row of pending) {
        await tx
          .update(enrichmentSources)
          .set({ status: "failed", lastError: row.lastError ?? "retries_exhausted", updatedAt: new Date() })
          .where(and(eq(enrichmentSources.propertyId, id), eq(enrichmentSources.source, row.source), eq(enrichmentSources.status, "pending")));
        await giveUp(tx, id, row.source);
      }
    });
    await finalizeIfDone(deps, id, true);
    return;
  }
  await deps.db.transaction(async (tx) => {
    const [advanced] = await tx
      .update(properties)
      .set({ enrichmentRun: run + 1 })
      .where(and(eq(properties.id, id), eq(properties.enrichmentRun, run)))
      .returning({ id: properties.id });
    if (advanced) {
      await enqueue(deps.queue, tx, QUEUES.enrich, { propertyId: id, run: run + 1 }, {
        delaySeconds: withJitter(schedule[run]!, deps.config.ENRICHMENT_RETRY_JITTER),
      });
    }
  });
}

/**
 * Inline enrichment of a new property. Finished before the deadline: final at the response, no event.
 * Otherwise the first durable run finalizes it and announces `property.enriched`.
 */
export async function enrichInline(deps: EnrichmentDeps, propertyId: string, deadlineAt: number): Promise<void> {
  await enrichProperty(deps, propertyId, { trigger: "inline", deadlineAt });
  if (Date.now() < deadlineAt) await finalizeIfDone(deps, propertyId, false);
}
