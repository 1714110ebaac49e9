// The Property as partners see it (create, get, list items and the `data` of events), per the
// contract. One zod schema is its type, its validation in tests and its OpenAPI description.
// To add a member: declare it here, fill it in the enrichment engine (lib/enrichment/engine.ts).
import { z } from "zod";
import { ITE_STATUSES, PROPERTY_STATUSES, RATINGS, SOURCE_STATUSES } from "./words";

export const Timestamp = z.string().meta({ format: "date-time", description: "RFC 3339" });

export const EnergyCertificate = z
  .looseObject({
    rating: z.enum(RATINGS),
    source: z.enum(["registry", "estimated"]),
    registry: z.string().optional().meta({ description: "Registry that issued it (source registry)." }),
    certificate_id: z.string().optional(),
    issued_on: z.string().optional().meta({ description: "Date of the certificate, YYYY-MM-DD." }),
  })
  .meta({ id: "EnergyCertificate" });
export type EnergyCertificate = z.infer<typeof EnergyCertificate>;

export const SourceEnrichment = z
  .object({
    status: z.enum(SOURCE_STATUSES).meta({
      description: "pending: not finished, being retried; completed: data or a definite answer; failed: retries exhausted.",
    }),
    attempts: z.number().int(),
    updated_at: Timestamp,
    error: z.string().nullable().meta({ description: "Last error code while failing, else null." }),
  })
  .meta({ id: "SourceEnrichment" });

export const Property = z
  .object({
    property_id: z.uuid(),
    cadastral_reference: z.string(),
    status: z.enum(PROPERTY_STATUSES),
    address: z.string().nullable(),
    municipality: z.string().nullable(),
    province: z.string().nullable(),
    ccaa: z.string().nullable().meta({ description: "Autonomous community, derived from the province." }),
    year_built: z.number().int().nullable(),
    climate_zone: z.string().nullable().meta({ description: "CTE DB-HE 2019 climate zone, e.g. D3 or α3." }),
    energy_certificate: EnergyCertificate.nullable(),
    ite_fetch_status: z.enum(ITE_STATUSES),
    enrichment: z.object({
      cadastre: SourceEnrichment,
      energy_certificate: SourceEnrichment,
      ite: SourceEnrichment,
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
    enriched_at: Timestamp.nullable(),
  })
  .meta({ id: "Property" });
export type Property = z.infer<typeof Property>;
