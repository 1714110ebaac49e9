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
  // One statement: the insert's rows are not visible to its own select, so `existing` holds only the
  // properties registered before it.
  const rows = rowsOf<{ id: string; reference: string; status: PropertyStatus; created: boolean }>(
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
      select ${bare(p.id)} as id, ${bare(p.cadastralReference)} as reference, ${bare(p.status)} as status, true as created
      from inserted
      union all
      select ${p.id}, ${p.cadastralReference}, ${p.status}, false from ${p} join input on ${p.cadastralReference} = r
      where ${p.partnerId} = ${scope.partnerId}::uuid and ${p.mode} = ${scope.mode}`),
  );
  for (const row of rows) registered.set(row.reference, { propertyId: row.id, status: row.status });
  // A concurrent create may have won a reference after this statement began: read those now.
  const missing = references.filter((r) => !registered.has(r));
  if (missing.length) {
    const late = rowsOf<{ id: string; reference: string; status: PropertyStatus }>(
      await tx.execute(sql`
        select ${p.id} as id, ${p.cadastralReference} as reference, ${p.status} as status from ${p}
        where ${p.partnerId} = ${scope.partnerId}::uuid and ${p.mode} = ${scope.mode}
          and ${p.cadastralReference} = any(${sql.param(missing)}::text[])`),
    );
    for (const row of late) registered.set(row.reference, { propertyId: row.id, status: row.status });
  }
  const created = rows.filter((r) => r.created);
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
