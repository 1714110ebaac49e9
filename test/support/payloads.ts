// Event payloads as the contract describes them (an event's stored payload is read through its
// type's schema, so a test's events carry real ones): constructed, each member overridable.
import { randomUUID } from "node:crypto";
import { emptyCounts, EMPTY_DATA, type Batch, type Property } from "@/lib/domain";
import { sandboxSource as source } from "@/lib/partner-api/examples";

export function aProperty(overrides: Partial<Property> = {}): Property {
  const at = new Date().toISOString();
  return {
    property_id: randomUUID(),
    cadastral_reference: "2749704YJ0624N0001DI",
    status: "enriched",
    ...EMPTY_DATA,
    enrichment: { cadastre: source(at), energy_certificate: source(at), ite: source(at) },
    attribution: [],
    created_at: at,
    updated_at: at,
    enriched_at: at,
    ...overrides,
  };
}

export function aBatch(overrides: Partial<Batch> = {}): Batch {
  const at = new Date().toISOString();
  return {
    batch_id: randomUUID(),
    name: null,
    status: "completed",
    counts: emptyCounts(0),
    created_at: at,
    started_at: at,
    completed_at: at,
    ...overrides,
  };
}
