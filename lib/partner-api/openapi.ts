// The OpenAPI 3.1 document, generated from the same zod schemas that validate requests.
import { z } from "zod";
import { createDocument, type ZodOpenApiResponseObject } from "zod-openapi";
import {
  CreatePropertyBody,
  CreateWebhookEndpointBody,
  ListPropertiesQuery,
  Problem,
  Property,
  PropertyList,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from "./schemas";

const rateLimitHeaders = z.object({
  "RateLimit-Policy": z.string().meta({ description: '`"writes";q=100;w=60`' }),
  RateLimit: z.string().meta({ description: '`"writes";r=<remaining>;t=<seconds until a slot frees>`' }),
  "X-Request-Id": z.string().meta({ description: "Echo of a sane incoming X-Request-Id, or a generated one." }),
});
type Headers = ZodOpenApiResponseObject["headers"];

const problem = (description: string, headers?: Headers): ZodOpenApiResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/problem+json": { schema: Problem } },
});
const ok = (description: string, schema: z.ZodType, headers?: Headers): ZodOpenApiResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/json": { schema } },
});

const writeErrors = {
  "401": problem("`missing_api_key`: the X-API-Key header is missing, or the key is invalid or revoked."),
  "422": problem("`validation_error`: body not JSON, not an object, missing or mistyped field, unknown field, or wrong Content-Type.", rateLimitHeaders),
  "429": problem(
    "`rate_limited`: more than 100 write requests in the last 60 s for this partner and mode.",
    rateLimitHeaders.extend({ "Retry-After": z.string().meta({ description: "Whole seconds to wait before retrying." }) }),
  ),
};
const idParam = z.object({ id: z.uuid() });

let cached: object | undefined;

export function openApiDocument(): object {
  cached ??= createDocument({
    openapi: "3.1.0",
    info: {
      title: "Finca partner API",
      version: "1.0.0",
      description:
        "Register Spanish properties by cadastral reference and receive them enriched from the cadastre, energy certificate registries and ITE registries. Fields not obtained within the deadline are null and are completed later; `property.enriched` announces completion (Standard Webhooks).",
    },
    servers: [{ url: "/api/v1/partner-api" }],
    components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-API-Key" } } },
    security: [{ apiKey: [] }],
    paths: {
      "/properties": {
        post: {
          operationId: "createProperty",
          summary: "Register a property",
          description:
            "Normalises the reference (trim, remove spaces and hyphens, upper-case), validates it, and answers within the enrichment deadline with what is known. Idempotent per reference: a repeat answers 200 with the existing property.",
          requestBody: { required: true, content: { "application/json": { schema: CreatePropertyBody } } },
          responses: {
            "200": ok("The reference was already registered: the existing property.", Property, rateLimitHeaders),
            "201": ok("Registered.", Property, rateLimitHeaders.extend({ Location: z.string().meta({ description: "URL of the new property." }) })),
            "400": problem("`invalid_cadastral_reference`: not 14 or 20 characters of [0-9A-ZÑ], or wrong check letters.", rateLimitHeaders),
            ...writeErrors,
          },
        },
        get: {
          operationId: "listProperties",
          summary: "List properties, newest first",
          requestParams: { query: ListPropertiesQuery },
          responses: { "200": ok("A page of properties.", PropertyList), "401": writeErrors["401"], "422": writeErrors["422"] },
        },
      },
      "/properties/{id}": {
        get: {
          operationId: "getProperty",
          summary: "Get a property",
          requestParams: { path: idParam },
          responses: { "200": ok("The property.", Property), "401": writeErrors["401"], "404": problem("`not_found`") },
        },
      },
      "/webhook-endpoints": {
        get: {
          operationId: "listWebhookEndpoints",
          summary: "List webhook endpoints",
          responses: { "200": ok("Endpoints of this partner and mode (secrets are not listed).", WebhookEndpointList), "401": writeErrors["401"] },
        },
        post: {
          operationId: "createWebhookEndpoint",
          summary: "Add a webhook endpoint",
          description: "Live mode requires https. Addresses in private, loopback, link-local and reserved ranges are refused.",
          requestBody: { required: true, content: { "application/json": { schema: CreateWebhookEndpointBody } } },
          responses: { "201": ok("Created; `secret` is shown only now.", WebhookEndpointWithSecret, rateLimitHeaders), ...writeErrors },
        },
      },
      "/webhook-endpoints/{id}": {
        delete: {
          operationId: "deleteWebhookEndpoint",
          summary: "Delete a webhook endpoint",
          requestParams: { path: idParam },
          responses: { "204": { description: "Deleted.", headers: rateLimitHeaders }, "404": problem("`not_found`"), ...writeErrors },
        },
      },
    },
    webhooks: {
      "property.enriched": {
        post: {
          summary: "Every source reached a final state",
          description:
            "Standard Webhooks: headers webhook-id (stable across retries), webhook-timestamp, webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body>). Sent once per property if enrichment finished after the create response.",
          requestBody: {
            content: {
              "application/json": {
                schema: z.object({ type: z.literal("property.enriched"), timestamp: z.string(), data: Property }),
              },
            },
          },
          responses: { "200": { description: "Any 2xx within 15 s acknowledges the event." } },
        },
      },
    },
  });
  return cached;
}
