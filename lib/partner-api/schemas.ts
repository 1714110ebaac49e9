// zod schemas of requests and of the envelopes around domain objects: the single source for
// request validation, response types and the OpenAPI document (with lib/domain's Property and
// lib/webhooks' WebhookEndpoint).
import { z } from "zod";
import "zod-openapi";
import { PROPERTY_STATUSES, Property } from "@/lib/domain";
import { WebhookEndpoint } from "@/lib/webhooks/endpoints";
import { MAX_URL_LENGTH } from "@/lib/webhooks/ssrf";

export const CreatePropertyBody = z
  .strictObject({
    cadastral_reference: z.string().meta({
      description: "14-character parcel or 20-character unit reference; spaces and hyphens are ignored.",
      example: "2749704YJ0624N0001DI",
    }),
  })
  .meta({ id: "CreatePropertyRequest" });

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

/** As the handlers treat it: any segment; one that is not the id (a UUID) of this partner's item answers 404, never 422. */
export const IdParam = z.object({ id: z.string().meta({ description: "The item's id (a UUID). Any other value, like an unknown id, answers 404." }) });

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
    url: z.string().max(MAX_URL_LENGTH).meta({ example: "https://example.com/webhooks/finca" }),
    // PostgreSQL text cannot hold a NUL.
    description: z.string().max(500).refine((d) => !d.includes("\u0000"), "must not contain NUL characters").optional(),
  })
  .meta({ id: "CreateWebhookEndpointRequest" });

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().meta({ description: "Signing secret (whsec_...), shown only in this response." }),
}).meta({ id: "WebhookEndpointWithSecret" });

export const WebhookEndpointList = z.object({ data: z.array(WebhookEndpoint) }).meta({ id: "WebhookEndpointList" });
