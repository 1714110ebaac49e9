// The OpenAPI 3.1 document, built from the table of operations and the same zod schemas that
// validate requests. Limits and timings in its text come from the configuration.
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from "zod-openapi";
import type { Config } from "@/lib/config";
import { Property } from "@/lib/domain";
import { Problem } from "./schemas";
import type { Operation } from "./operation";

type Headers = ZodOpenApiResponseObject["headers"];

const requestIdHeader = { "X-Request-Id": z.string().meta({ description: "Echo of a sane incoming X-Request-Id, or a generated one." }) };

const rateLimitHeaders = (config: Config) =>
  z.object({
    "RateLimit-Policy": z.string().meta({ description: `\`"writes";q=${config.RATE_LIMIT_WRITES};w=${config.RATE_LIMIT_WINDOW_SECONDS}\`` }),
    RateLimit: z.string().meta({ description: '`"writes";r=<remaining>;t=<seconds until a slot frees>`' }),
    ...requestIdHeader,
  });

const problem = (description: string, headers?: Headers): ZodOpenApiResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/problem+json": { schema: Problem } },
});

/** An operation's responses: its own, the errors its flags imply, and the write headers on all of a write's. */
function responsesOf(op: Operation, config: Config): Record<string, ZodOpenApiResponseObject> {
  const writeHeaders = op.write ? rateLimitHeaders(config) : undefined;
  const own = Object.fromEntries(
    Object.entries(op.responses(config)).map(([status, response]) => {
      const isProblem = Number(status) >= 400 && !response.content;
      const headers = writeHeaders && response.headers ? (writeHeaders as z.ZodObject).extend((response.headers as z.ZodObject).shape) : (writeHeaders ?? response.headers);
      return [status, isProblem ? problem(response.description, headers as Headers) : { ...response, ...(headers ? { headers } : {}) }];
    }),
  );
  const implied: Record<string, ZodOpenApiResponseObject> = {};
  if (op.authenticated) implied["401"] = problem("`missing_api_key`: the X-API-Key header is missing, or the key is invalid or revoked.");
  if (op.write || op.request?.query) {
    implied["422"] = problem("`validation_error`: body not JSON, not an object, missing or mistyped field, unknown field, or wrong Content-Type.", writeHeaders);
  }
  if (op.write) {
    implied["429"] = problem(
      `\`rate_limited\`: more than ${config.RATE_LIMIT_WRITES} write requests in the last ${config.RATE_LIMIT_WINDOW_SECONDS} s for this partner and mode.`,
      rateLimitHeaders(config).extend({ "Retry-After": z.string().meta({ description: "Whole seconds to wait before retrying." }) }),
    );
  }
  return { ...own, ...implied };
}

function operationObject(op: Operation, config: Config): ZodOpenApiOperationObject {
  return {
    operationId: op.id,
    summary: op.summary,
    ...(op.description ? { description: op.description(config) } : {}),
    ...(op.authenticated ? {} : { security: [] }),
    ...(op.request?.path || op.request?.query ? { requestParams: { ...(op.request.path ? { path: op.request.path } : {}), ...(op.request.query ? { query: op.request.query } : {}) } } : {}),
    ...(op.request?.body ? { requestBody: { required: true, content: { "application/json": { schema: op.request.body } } } } : {}),
    responses: responsesOf(op, config),
  };
}

const cache = new WeakMap<Config, object>();

export function buildOpenApiDocument(operations: readonly Operation[], config: Config): object {
  const cached = cache.get(config);
  if (cached) return cached;
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: operationObject(op, config) };
  const document = createDocument({
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
    paths,
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
          responses: { "200": { description: `Any 2xx within ${config.WEBHOOK_TIMEOUT_MS / 1000} s acknowledges the event.` } },
        },
      },
    },
  });
  cache.set(config, document);
  return document;
}
