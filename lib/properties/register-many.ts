// Registering many normalised references at once (a portfolio's step), exactly as creates would:
// idempotent per partner, mode and reference, so a reference already registered reuses its
// property. New properties are written with their three pending sources in one statement, and
// their durable enrichment (run 0, the first attempt a create would have made inline) in the
// caller's transaction, below single creates' runs in the queue.
import { sql } from "drizzle-orm";
import { bare, rowsOf, schema, type DbOrTx } from "@/lib/db";
import { SOURCES, type PropertyStatus, type Scope } from "@/lib/domain";
import { enqueueMany, QUEUES, type Queue } from "@/lib/queue";
import type { EnrichJob } from "./enrich-run";

const { properties, enrichmentSources } = schema;

/** Portfolio runs are fetched after single creates' runs (pg-boss: higher priority first). */
export const BATCH_PRIORITY = -1;

export interface Registered {
  propertyId: string;
  status: PropertyStatus;
}

/**
 * The property of each reference, created where the partner has none. References must be valid and
 * normalised; the answer holds every one of them.
 */
export async function registerReferences(
  tx: DbOrTx,
  queue: Queue,
  scope: Scope,
  references: string[],
): Promise<Map<string, Registered>> {
  const registered = new Map<string, Registered>();
  if (!references.length) return registered;
  const p = properties;
  const s = enrichmentSources;
  // One statement writes the new ones: a portfolio's references are mostly new, and looking up the
  // others there (a join to the partner's properties) read all of the partner's properties in the
  // mode whenever the planner's statistics predated the portfolio, more at each step as it grew.
  const created = rowsOf<{ id: string; reference: string; status: PropertyStatus }>(
    await tx.execute(sql`
      with input as (select distinct r from unnest(${sql.param(references)}::text[]) r),
      inserted as (
        insert into ${p} (${bare(p.partnerId)}, ${bare(p.mode)}, ${bare(p.cadastralReference)}, ${bare(p.enrichmentRun)})
        select ${scope.partnerId}::uuid, ${scope.mode}, r, 0 from input
        on conflict do nothing
        returning ${bare(p.id)}, ${bare(p.cadastralReference)}, ${bare(p.status)}
      ),
      sources as (
        insert into ${s} (${bare(s.propertyId)}, ${bare(s.source)})
        select inserted.${bare(p.id)}, source from inserted, unnest(${sql.param([...SOURCES])}::text[]) source
      )
      select ${bare(p.id)} as id, ${bare(p.cadastralReference)} as reference, ${bare(p.status)} as status from inserted`),
  );
  for (const row of created) registered.set(row.reference, { propertyId: row.id, status: row.status });
  // The rest were registered before (or by a concurrent create after this statement began): read
  // those by reference, the unique index's probes.
  const missing = references.filter((r) => !registered.has(r));
  if (missing.length) {
    const existing = rowsOf<{ id: string; reference: string; status: PropertyStatus }>(
      await tx.execute(sql`
        select ${p.id} as id, ${p.cadastralReference} as reference, ${p.status} as status from ${p}
        where ${p.partnerId} = ${scope.partnerId}::uuid and ${p.mode} = ${scope.mode}
          and ${p.cadastralReference} = any(${sql.param(missing)}::text[])`),
    );
    for (const row of existing) registered.set(row.reference, { propertyId: row.id, status: row.status });
  }
  await enqueueMany(
    queue,
    tx,
    QUEUES.enrich,
    created.map((r) => ({
      data: { propertyId: r.id, run: 0, priority: BATCH_PRIORITY } satisfies EnrichJob,
      options: { priority: BATCH_PRIORITY },
    })),
  );
  return registered;
}
