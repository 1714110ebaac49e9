// Registering a property: one transaction writes it, its source rows and its durable enrichment job;
// then the pipeline runs inline until the deadline.
import { and, eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { SOURCES } from "@/drizzle/schema";
import { enqueue, QUEUES } from "@/lib/queue";
import { enrichInline, firstRunDelaySeconds, type EnrichmentDeps } from "@/lib/enrichment/pipeline";
import { getPropertyJson, type Scope } from ".";
import type { PropertyJson } from "@/lib/partner-api/schemas";

const { properties, enrichmentSources } = schema;

export interface Registration {
  created: boolean;
  property: PropertyJson;
}

/**
 * Idempotent on (partner, mode, normalised reference): a repeat returns the existing property.
 * `startedAt` is when the request arrived, so the deadline bounds the whole response.
 */
export async function registerProperty(deps: EnrichmentDeps, scope: Scope, reference: string, startedAt = Date.now()): Promise<Registration> {
  const inserted = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(properties)
      .values({ partnerId: scope.partnerId, mode: scope.mode, cadastralReference: reference })
      .onConflictDoNothing()
      .returning({ id: properties.id });
    if (!row) return null;
    await tx.insert(enrichmentSources).values(SOURCES.map((source) => ({ propertyId: row.id, source })));
    await enqueue(deps.queue, tx, QUEUES.enrich, { propertyId: row.id, run: 1 }, { delaySeconds: firstRunDelaySeconds(deps.config, scope.mode) });
    return row;
  });

  if (!inserted) {
    const [existing] = await deps.db
      .select({ id: properties.id })
      .from(properties)
      .where(and(eq(properties.partnerId, scope.partnerId), eq(properties.mode, scope.mode), eq(properties.cadastralReference, reference)));
    return { created: false, property: (await getPropertyJson(deps.db, scope, existing!.id))! };
  }
  await enrichInline(deps, inserted.id, startedAt + deps.config.ENRICHMENT_DEADLINE_MS);
  return { created: true, property: (await getPropertyJson(deps.db, scope, inserted.id))! };
}
