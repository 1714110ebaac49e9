// One durable enrichment run (job `run` of a property): the engine retries the pending sources,
// then one transaction, guarded by the run number, writes the results and either finishes (final
// status + `property.enriched`) or schedules the next run. A run that dies writes nothing (its job
// is retried); a job whose run number is not the property's current one is stale and does nothing.
import { and, eq, sql } from "drizzle-orm";
import { schema } from "@/lib/db";
import { enqueue, QUEUES } from "@/lib/queue";
import type { SourceName } from "@/lib/domain";
import { finalStatus, giveUpPending, newDraft, runUntil, type SourceState } from "@/lib/enrichment/engine";
import { isLastRun, maxAttempts, nextRunDelaySeconds, runDeadline } from "@/lib/enrichment/schedule";
import { recordEvent } from "@/lib/webhooks/events";
import { columnsOf, dataOf, toProperty } from "./read";
import { childRowsOf, type PropertiesDeps } from "./register";

const { properties, enrichmentSources, enrichmentAttempts } = schema;

export type EnrichJob = { propertyId: string; run: number };

class StaleRun extends Error {}

export async function runEnrichmentJob(deps: PropertiesDeps, { propertyId, run }: EnrichJob): Promise<void> {
  // The property with its source rows in one round trip.
  const read = await deps.db
    .select({ property: properties, source: enrichmentSources })
    .from(properties)
    .innerJoin(enrichmentSources, eq(enrichmentSources.propertyId, properties.id))
    .where(eq(properties.id, propertyId));
  const property = read[0]?.property;
  if (!property || property.status !== "enriching" || property.enrichmentRun !== run) return;
  const sources: Partial<Record<SourceName, SourceState>> = {};
  for (const { source: r } of read) sources[r.source] = { status: r.status, attempts: r.attempts, lastError: r.lastError, lastDurationMs: r.lastDurationMs, provider: r.provider, summary: r.summary, updatedAt: r.updatedAt };
  const draft = newDraft(property.cadastralReference, property.mode, { data: dataOf(property), facts: property.facts, sources });
  await runUntil(draft, { sources: deps.sourcesFor(property.mode), trigger: "job", maxAttempts: maxAttempts(deps.config, property.mode) }, runDeadline(deps.config));
  deps.onAttempts?.(draft.attempts, property.mode);

  let status = finalStatus(draft);
  if (!status && isLastRun(deps.config, property.mode, run)) {
    giveUpPending(draft);
    status = finalStatus(draft);
  }

  try {
    await deps.db.transaction(async (tx) => {
      const now = new Date();
      const [updated] = await tx
        .update(properties)
        .set({ ...columnsOf(draft.data), facts: draft.facts, updatedAt: now, ...(status ? { status, enrichedAt: now } : { enrichmentRun: run + 1 }) })
        .where(and(eq(properties.id, propertyId), eq(properties.status, "enriching"), eq(properties.enrichmentRun, run)))
        .returning();
      if (!updated) throw new StaleRun();
      // The three source rows in one statement (they exist: the upsert only ever updates).
      const { sources, attempts } = childRowsOf(draft, propertyId);
      const excluded = (column: { name: string }) => sql.raw(`excluded.${column.name}`);
      await tx
        .insert(enrichmentSources)
        .values(sources)
        .onConflictDoUpdate({
          target: [enrichmentSources.propertyId, enrichmentSources.source],
          set: {
            status: excluded(enrichmentSources.status),
            attempts: excluded(enrichmentSources.attempts),
            lastError: excluded(enrichmentSources.lastError),
            lastDurationMs: excluded(enrichmentSources.lastDurationMs),
            provider: excluded(enrichmentSources.provider),
            summary: excluded(enrichmentSources.summary),
            updatedAt: excluded(enrichmentSources.updatedAt),
          },
        });
      if (attempts.length) await tx.insert(enrichmentAttempts).values(attempts);
      if (status) {
        await recordEvent(tx, deps.queue, { partnerId: updated.partnerId, mode: updated.mode, type: "property.enriched", propertyId, payload: toProperty(updated, sources) });
      } else {
        await enqueue(deps.queue, tx, QUEUES.enrich, { propertyId, run: run + 1 } satisfies EnrichJob, { delaySeconds: nextRunDelaySeconds(deps.config, property.mode, run) });
      }
    });
  } catch (error) {
    if (!(error instanceof StaleRun)) throw error;
  }
}
