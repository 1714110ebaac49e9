// Registering a property: idempotent on (partner, mode, normalised reference). A repeat asks no
// register; a new one is enriched inline until the deadline, then written (createEnriched).
import { and, eq, sql } from "drizzle-orm";
import { preparedStatement, schema } from "@/lib/db";
import { createEnriched, type EnrichmentDeps } from "@/lib/enrichment/pipeline";
import { getPropertyJson, type Scope } from ".";
import type { PropertyJson } from "@/lib/partner-api/schemas";

const { properties } = schema;

export interface Registration {
  created: boolean;
  property: PropertyJson;
}

const propertyByReference = preparedStatement("property_by_reference", (db) =>
  db
    .select({ id: properties.id })
    .from(properties)
    .where(
      and(
        eq(properties.partnerId, sql.placeholder("partnerId")),
        eq(properties.mode, sql.placeholder("mode")),
        eq(properties.cadastralReference, sql.placeholder("reference")),
      ),
    ),
);

async function existing(deps: EnrichmentDeps, scope: Scope, reference: string): Promise<PropertyJson | null> {
  const [row] = await propertyByReference(deps.db).execute({ ...scope, reference });
  return row ? getPropertyJson(deps.db, scope, row.id) : null;
}

/**
 * The enrichment stops this long before the response deadline, leaving time to write the property
 * (one transaction) so the response itself meets the deadline under load.
 */
export const writeReserveMs = (deadlineMs: number) => Math.min(150, Math.floor(deadlineMs / 10));

/** `startedAt` is when the request arrived, so the deadline bounds the whole response. */
export async function registerProperty(deps: EnrichmentDeps, scope: Scope, reference: string, startedAt = Date.now()): Promise<Registration> {
  // A repeat asks no register at all.
  const known = await existing(deps, scope, reference);
  if (known) return { created: false, property: known };
  const deadline = deps.config.ENRICHMENT_DEADLINE_MS;
  const created = await createEnriched(deps, scope, reference, startedAt + deadline - writeReserveMs(deadline));
  if (created) return { created: true, property: created };
  // Registered by a concurrent request while this one was enriching.
  return { created: false, property: (await existing(deps, scope, reference))! };
}
