// The OpenAPI 3.1 document, built from the table of operations and the same zod schemas that
// validate requests. Limits and timings in its text come from the configuration. Checked in CI by
// Redocly and Spectral (zero warnings) and by Prism as a validating proxy (scripts/openapi-check.mjs).
import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import type { Config } from "@/lib/config";
import { Batch, DomainError, ERROR_TITLES, Property, Timestamp, type ErrorCode } from "@/lib/domain";
import { TEST_EVENT_MESSAGE } from "@/lib/webhooks/replay";
import { MISSING_KEY, problemBody, STATUS_OF_CODE } from "./errors";
import { Problem } from "./schemas";
import { contract } from "./contract";
import * as example from "./examples";
import { BASE_PATH, TAGS, type Contract, type ProblemExample } from "./operation";

type HeaderRefs = Record<string, { $ref: string }>;
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const string = { type: "string" } as const;

/** Response headers, defined once and referenced: what a client generator turns into one type. */
function headerComponents(config: Config) {
  return {
    XRequestId: {
      description:
        "Echo of a sane incoming X-Request-Id, or a generated `req_…` id. Quote it to support; find it in the portal's Logs.",
      schema: string,
    },
    RateLimitPolicy: {
      description: `Writes only: \`"writes";q=${config.RATE_LIMIT_WRITES};w=${config.RATE_LIMIT_WINDOW_SECONDS}\`.`,
      schema: string,
    },
    RateLimit: { description: 'Writes only: `"writes";r=<remaining>;t=<seconds until a slot frees>`.', schema: string },
    RetryAfter: {
      description: "Whole seconds to wait before retrying.",
      schema: { type: "string" as const, pattern: "^\\d+$" },
    },
    Location: { description: "Path of the created item.", schema: string },
  };
}

/** The Standard Webhooks headers every event request carries (request headers are parameters in OpenAPI). */
const WEBHOOK_HEADERS = {
  WebhookId: {
    in: "header",
    name: "webhook-id",
    required: true,
    description:
      "The message id, stable across retries and replays: deduplicate on it; the portal's deliveries are searchable by it.",
    schema: string,
  },
  WebhookTimestamp: {
    in: "header",
    name: "webhook-timestamp",
    required: true,
    description: "Unix seconds when this attempt was signed; refuse stale ones.",
    schema: { type: "string" as const, pattern: "^\\d+$" },
  },
  WebhookSignature: {
    in: "header",
    name: "webhook-signature",
    required: true,
    description:
      "Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per valid secret (two during a rotation).",
    schema: string,
  },
} as const;

const requestIdHeaders: HeaderRefs = { "X-Request-Id": ref("XRequestId") };
const writeHeaders: HeaderRefs = {
  ...requestIdHeaders,
  "RateLimit-Policy": ref("RateLimitPolicy"),
  RateLimit: ref("RateLimit"),
};

const ERROR_CODES = Object.keys(ERROR_TITLES).filter((code): code is ErrorCode => Object.hasOwn(ERROR_TITLES, code));
const CODE_OF_STATUS = new Map(ERROR_CODES.map((code) => [STATUS_OF_CODE[code], code]));

/** The problem schema of one error code (Dub's per-error schemas): its code, status and type as constants. */
const problemSchemas = new Map(
  ERROR_CODES.map((code) => [
    code,
    Problem.extend({
      type: z.literal(`/docs/errors#${code}`),
      status: z.literal(STATUS_OF_CODE[code]),
      code: z.enum([code]),
    }).meta({ id: `${code.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())}Problem` }),
  ]),
);

/** A problem answer, its example written by the one problem+json writer. */
const problem = (
  status: string,
  description: string,
  headers: HeaderRefs,
  { detail, errors }: ProblemExample,
): ZodOpenApiResponseObject => {
  const code = CODE_OF_STATUS.get(Number(status));
  if (!code) throw new Error(`no error code answers ${status}`);
  const body = problemBody(new DomainError(code, detail, errors && [...errors]), example.REQUEST_ID);
  return {
    description,
    headers,
    content: { "application/problem+json": { schema: problemSchemas.get(code), example: body } },
  };
};

/**
 * An operation's responses: its own, and the errors its flags imply. Every response carries
 * X-Request-Id; the rate-limit headers only those of a write that was counted (not its 401).
 */
function responsesOf(op: Contract, config: Config): Record<string, ZodOpenApiResponseObject> {
  const counted = op.write ? writeHeaders : requestIdHeaders;
  const own = Object.fromEntries(
    Object.entries(op.responses).map(([status, declared]) => {
      const description =
        typeof declared.description === "string" ? declared.description : declared.description(config);
      if (declared.kind === "problem") {
        const shown = typeof declared.example === "function" ? declared.example(config) : declared.example;
        return [status, problem(status, description, counted, shown)];
      }
      const headers =
        declared.kind === "json" && declared.location ? { ...counted, Location: ref("Location") } : counted;
      const content =
        declared.kind === "json"
          ? { "application/json": { schema: declared.schema, example: declared.example } }
          : declared.kind === "stream"
            ? mediaTypes(declared.content, declared.examples)
            : undefined;
      return [status, { description, headers, ...(content && { content }) }];
    }),
  );
  const implied: Record<string, ZodOpenApiResponseObject> = {};
  if (op.authenticated)
    implied["401"] = problem(
      "401",
      "`missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired.",
      requestIdHeaders,
      { detail: MISSING_KEY },
    );
  // Only what the wrapper parses can be refused: a body (with its headers) or a query.
  if (op.request?.body || op.request?.query) {
    implied["422"] = problem(
      "422",
      "`validation_error`: body not JSON, not an object, missing or mistyped field, unknown field, or wrong Content-Type.",
      counted,
      op.request.body ? example.notAnObject : example.unknownParameter,
    );
  }
  if (op.write) {
    implied["429"] = problem(
      "429",
      `\`rate_limited\`: more than ${config.RATE_LIMIT_WRITES} write requests in the last ${config.RATE_LIMIT_WINDOW_SECONDS} s for this partner and mode.`,
      {
        ...writeHeaders,
        "Retry-After": ref("RetryAfter"),
      },
      example.rateLimitedFor(config),
    );
  }
  return { ...own, ...implied };
}

/** Media types, each with its schema and its example where it has one (a binary one has none). */
const mediaTypes = (schemas: Record<string, z.ZodType>, examples: Record<string, unknown> = {}) =>
  Object.fromEntries(
    Object.entries(schemas).map(([type, schema]) => [
      type,
      { schema, ...(examples[type] !== undefined && { example: examples[type] }) },
    ]),
  );

/**
 * The schema an answer of `op` with this status and media type was declared with (the document's
 * own), or null where none is (a stream, an empty body).
 */
export function declaredSchema(op: Contract, config: Config, status: number, mediaType: string): z.ZodType | null {
  const schema = responsesOf(op, config)[String(status)]?.content?.[mediaType]?.schema;
  return schema instanceof z.ZodType ? schema : null;
}

function operationObject(op: Contract, config: Config): ZodOpenApiOperationObject {
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    description: op.description(config),
    ...(op.authenticated ? {} : { security: [] }),
    ...(op.request?.path || op.request?.query || op.request?.headers
      ? {
          requestParams: {
            ...(op.request.path ? { path: op.request.path } : {}),
            ...(op.request.query ? { query: op.request.query } : {}),
            ...(op.request.headers ? { header: op.request.headers } : {}),
          },
        }
      : {}),
    ...(op.request?.body
      ? {
          requestBody: {
            required: true,
            content: mediaTypes(
              { "application/json": op.request.body, ...op.request.alsoAccepts },
              { "application/json": op.request.examples?.body, ...op.request.examples?.alsoAccepts },
            ),
          },
        }
      : {}),
    responses: responsesOf(op, config),
  };
}

/** One event as sent: `{type, timestamp, data}`, signed per Standard Webhooks. */
function webhook(
  config: Config,
  event: {
    id: string;
    type: string;
    summary: string;
    description: string;
    data: z.ZodType;
    example: { timestamp: string; data: unknown };
  },
): ZodOpenApiOperationObject {
  return {
    operationId: event.id,
    tags: ["Webhook endpoints"],
    summary: event.summary,
    description: `${event.description} Verify the signature with a Standard Webhooks library (e.g. \`standardwebhooks\`, \`svix\`) and the endpoint's \`whsec_\` secret before trusting the body.`,
    parameters: Object.keys(WEBHOOK_HEADERS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({ type: z.literal(event.type), timestamp: Timestamp, data: event.data })
            .meta({ id: `${event.id}Event` }),
          example: { type: event.type, ...event.example },
        },
      },
    },
    responses: {
      "200": { description: `Any 2xx within ${config.WEBHOOK_TIMEOUT_MS / 1000} s acknowledges the event.` },
      "400": {
        description: "Anything else (or no answer in time) is a failed attempt: retried on the endpoint's schedule.",
      },
    },
  };
}

/** The check SUPPORT_EMAIL passes (lib/config). */
const Email = z.email();

/** The mailbox RFC 2142 (§3) names for customer service, where it is an address SUPPORT_EMAIL could be. */
function supportMailbox(origin: string): string | undefined {
  const address = `support@${new URL(origin).hostname}`;
  // A host with no domain (localhost, an IP address) gets none: no address is made up for it.
  return Email.safeParse(address).success ? address : undefined;
}

/**
 * What says where the API is and who answers: the absolute server URL, the contact's url and email
 * and the licence's url, on PUBLIC_BASE_URL, else on `origin` (where the document was asked for);
 * the email is SUPPORT_EMAIL, else that origin's support mailbox. With neither origin, the server is
 * the relative base path and the contact a name only.
 */
function whereabouts(config: Config, origin: string | undefined) {
  const base = config.PUBLIC_BASE_URL ?? origin;
  const email = config.SUPPORT_EMAIL ?? (base && supportMailbox(base));
  return {
    info: {
      contact: {
        name: "Finca partner support",
        ...(base && { url: `${base}/docs` }),
        ...(email && { email }),
      },
      license: {
        name: "Proprietary: for Finca partners under their agreement",
        ...(base && { url: `${base}/docs#terms` }),
      },
    },
    servers: [{ url: `${base ?? ""}${BASE_PATH}` }],
  };
}

const cache = new WeakMap<Config, Record<string, unknown>>();

/**
 * The OpenAPI document of the contract's operations (made once per configuration). `origin`, the
 * origin a request asked for it on, places it where PUBLIC_BASE_URL does not: only its whereabouts
 * differ, so they are laid over the one made document, and nothing of a request's is kept.
 */
export function openApiDocument(config: Config, origin?: string): Record<string, unknown> {
  let made = cache.get(config);
  if (!made) cache.set(config, (made = makeDocument(config)));
  if (config.PUBLIC_BASE_URL || !origin) return made;
  const { info, servers } = whereabouts(config, origin);
  return { ...made, info: { ...(made.info as object), ...info }, servers };
}

function makeDocument(config: Config): Record<string, unknown> {
  const located = whereabouts(config, undefined);
  const paths: ZodOpenApiPathsObject = {};
  for (const op of contract)
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: operationObject(op, config) };
  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Finca partner API",
      version: "1.0.0",
      description:
        "Register Spanish properties by cadastral reference and receive them enriched from the cadastre, energy certificate registries and ITE registries. Fields not obtained within the deadline are null and are completed later; `property.enriched` announces completion (Standard Webhooks).",
      ...located.info,
    },
    servers: located.servers,
    // Alphabetical, as Spectral's openapi-tags-alphabetical asks (generated clients group by tag).
    tags: Object.entries(TAGS)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "X-API-Key",
          description:
            "A `finca_test_…` or `finca_live_…` key from the portal: the key's mode selects sandbox or live registers and data.",
        },
      },
      headers: headerComponents(config),
      parameters: WEBHOOK_HEADERS,
    },
    security: [{ apiKey: [] }],
    paths,
    webhooks: {
      "property.enriched": {
        post: webhook(config, {
          id: "propertyEnriched",
          type: "property.enriched",
          summary: "Every source of a property reached a final state",
          description:
            "Sent once per property when its enrichment finished after the create response (a property answered complete at creation sends none). `data` is the property as `GET /properties/{id}` returns it.",
          data: Property,
          example: { timestamp: example.property.enriched_at ?? example.property.updated_at, data: example.property },
        }),
      },
      "batch.completed": {
        post: webhook(config, {
          id: "batchCompleted",
          type: "batch.completed",
          summary: "Every item of a batch is final or cancelled",
          description:
            "Sent once per batch when no item is pending any more (also for a cancelled batch, once the items it had started have finished). `data` is the batch as `GET /batches/{id}` returns it.",
          data: Batch,
          example: {
            timestamp: example.completedBatch.completed_at ?? example.completedBatch.created_at,
            data: example.completedBatch,
          },
        }),
      },
      "webhook.test": {
        post: webhook(config, {
          id: "webhookTest",
          type: "webhook.test",
          summary: "A test event sent from the portal",
          description:
            'Sent to one endpoint when its owner presses "Send test event" in the portal (also to a disabled endpoint), to check it is reachable and verifies signatures.',
          data: z.object({ endpoint_id: z.uuid(), message: z.string() }).meta({ id: "WebhookTestData" }),
          example: {
            timestamp: "2026-11-29T03:01:12.530Z",
            data: { endpoint_id: example.ENDPOINT_ID, message: TEST_EVENT_MESSAGE },
          },
        }),
      },
    },
  });
  // As a plain record: the API answers it as a JSON object (its declared schema).
  return { ...document };
}
