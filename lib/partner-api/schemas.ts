// zod schemas: the single source for request validation, response types and the OpenAPI document.
import { z } from "zod";
import "zod-openapi";
import { ITE_STATUSES, PROPERTY_STATUSES, SOURCE_STATUSES } from "@/drizzle/schema";

export const CreatePropertyBody = z
  .strictObject({
    cadastral_reference: z.string().meta({
      description: "14-character parcel or 20-character unit reference; spaces and hyphens are ignored.",
      example: "2749704YJ0624N0001DI",
    }),
  })
  .meta({ id: "CreatePropertyRequest" });
export type CreatePropertyBody = z.infer<typeof CreatePropertyBody>;

const Timestamp = z.string().meta({ format: "date-time", description: "RFC 3339" });

export const EnergyCertificate = z
  .looseObject({
    rating: z.enum(["A", "B", "C", "D", "E", "F", "G"]),
    source: z.enum(["registry", "estimated"]),
    registry: z.string().optional().meta({ description: "Registry that issued it (source registry)." }),
    certificate_id: z.string().optional(),
    issued_on: z.string().optional().meta({ description: "Date of the certificate, YYYY-MM-DD." }),
  })
  .meta({ id: "EnergyCertificate" });

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
export type PropertyJson = z.infer<typeof Property>;

export const PropertyList = z
  .object({
    data: z.array(Property),
    has_more: z.boolean(),
    next_starting_after: z.uuid().nullable().meta({ description: "Pass as starting_after for the next page." }),
  })
  .meta({ id: "PropertyList" });

export const ListPropertiesQuery = z.strictObject({
  // Decimal digits only: z.coerce would also take "1e2", "0x10" or " 5" (Number's own syntax).
  limit: z.preprocess(
    (v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v),
    z.number({ error: "must be a whole number from 1 to 100" }).int().min(1).max(100).default(20),
  ),
  starting_after: z.uuid().optional(),
  status: z.enum(PROPERTY_STATUSES).optional(),
});

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    request_id: z.string(),
    errors: z
      .array(
        z.union([
          z.object({ pointer: z.string(), detail: z.string() }),
          z.object({ parameter: z.string(), detail: z.string() }),
        ]),
      )
      .optional(),
  })
  .meta({ id: "Problem" });

export const CreateWebhookEndpointBody = z
  .strictObject({
    url: z.string().max(2048).meta({ example: "https://example.com/webhooks/finca" }),
    // PostgreSQL text cannot hold a NUL.
    description: z.string().max(500).refine((d) => !d.includes("\u0000"), "must not contain NUL characters").optional(),
  })
  .meta({ id: "CreateWebhookEndpointRequest" });

export const WebhookEndpoint = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: "WebhookEndpoint" });

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().meta({ description: "Signing secret (whsec_...), shown only in this response." }),
}).meta({ id: "WebhookEndpointWithSecret" });

export const WebhookEndpointList = z.object({ data: z.array(WebhookEndpoint) }).meta({ id: "WebhookEndpointList" });
