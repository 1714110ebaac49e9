// The Finca partner API for TypeScript: every operation typed from the API's OpenAPI document
// (./openapi.ts, generated), problem+json answers as FincaApiError, 429s waited out as Retry-After
// says, pages walked for you, portfolios submitted and followed, webhooks verified.
import createClient from "openapi-fetch";
import { Webhook } from "standardwebhooks";
import type { components, paths } from "./openapi.js";

export type { components, paths } from "./openapi.js";
type Schemas = components["schemas"];
export type Property = Schemas["Property"];
export type Batch = Schemas["Batch"];
export type BatchItem = Schemas["BatchItem"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
/** An error answer (problem+json): one schema per code in the document, any of them here. */
export type Problem = Schemas[Extract<keyof Schemas, `${string}Problem`>];

export const API_PATH = "/api/v1/partner-api";

/** What `Accept` asks `GET /batches/{id}/results` for, by format. */
const RESULTS_ACCEPT = {
  csv: "text/csv",
  ndjson: "application/x-ndjson",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

/** The `Content-Type` a portfolio file is sent with, by format. */
const UPLOAD_TYPES = { csv: "text/csv", xlsx: RESULTS_ACCEPT.xlsx } as const;

export interface UploadOptions {
  name?: string;
  idempotencyKey?: string;
  /** `csv` (default) or `xlsx`; a Blob of the XLSX media type is sent as `xlsx` without it. */
  format?: keyof typeof UPLOAD_TYPES;
  /** The header name of the reference column, when it is none of the accepted names. */
  referenceColumn?: string;
  /** The header name of your ids' column, when it is not `external_id`. */
  externalIdColumn?: string;
}

/** An answer of the API that is not a success: its problem+json, with the HTTP status. */
export class FincaApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
  ) {
    super(problem ? `${status} ${problem.code}: ${problem.detail}` : `HTTP ${status}`);
    this.name = "FincaApiError";
  }
  get code() {
    return this.problem?.code ?? null;
  }
  /** The request id to quote to support. */
  get requestId() {
    return this.problem?.request_id ?? null;
  }
}

export interface FincaOptions {
  /** A `finca_test_…` or `finca_live_…` key. */
  apiKey: string;
  /** The server's origin, e.g. `https://finca.example.com` (default `http://localhost:3000`). */
  baseUrl?: string;
  /** How many times a 429 is retried after its Retry-After (default 3; 0: never). */
  maxRetries?: number;
  fetch?: typeof fetch;
}

/**
 * Waits `ms`, or rejects when `signal` aborts. The abort listener goes when the time is up: a long
 * `batches.wait` sleeps hundreds of times on one signal (left behind, they passed Node's limit of
 * ten listeners and its MaxListenersExceededWarning).
 */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** A fetch that waits out 429s as the server's Retry-After says, up to `maxRetries` times. */
function retrying(base: typeof fetch, maxRetries: number): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let retry = 0; ; retry++) {
      const response = await base(retry < maxRetries ? request.clone() : request);
      if (response.status !== 429 || retry >= maxRetries) return response;
      await response.body?.cancel();
      await sleep(Math.max(1, Number(response.headers.get("retry-after")) || 1) * 1000, request.signal);
    }
  };
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

async function answered<T>(promise: Promise<Answer<T>>): Promise<{ data: T; status: number }> {
  const { data, error, response } = await promise;
  if (response.ok) return { data: data as T, status: response.status };
  throw new FincaApiError(
    response.status,
    error && typeof error === "object" && "code" in error ? (error as Problem) : null,
  );
}

const unwrap = async <T>(promise: Promise<Answer<T>>): Promise<T> => (await answered(promise)).data;

/** A submitted batch; `created` is false when the Idempotency-Key answered the batch it created before. */
const submitted = async (promise: Promise<Answer<Batch>>) => {
  const { data, status } = await answered(promise);
  return { batch: data, created: status === 202 };
};

type Page<T, Cursor> = { data: T[]; has_more: boolean; next_starting_after: Cursor | null };

/** Every item of a listing, page after page (`fetchPage` gets the cursor, or undefined first). */
async function* pages<T, Cursor>(
  fetchPage: (after: Cursor | undefined) => Promise<Page<T, Cursor>>,
): AsyncGenerator<T> {
  for (let after: Cursor | undefined; ; ) {
    const page = await fetchPage(after);
    yield* page.data;
    if (!page.has_more || page.next_starting_after === null) return;
    after = page.next_starting_after;
  }
}

export type ListPropertiesQuery = NonNullable<paths["/properties"]["get"]["parameters"]["query"]>;
export type ListItemsQuery = NonNullable<paths["/batches/{id}/items"]["get"]["parameters"]["query"]>;

export function createFinca(options: FincaOptions) {
  const origin = (options.baseUrl ?? "http://localhost:3000").replace(/\/+$/, "");
  const client = createClient<paths>({
    baseUrl: origin + API_PATH,
    headers: { "X-API-Key": options.apiKey },
    fetch: retrying(options.fetch ?? globalThis.fetch, options.maxRetries ?? 3),
  });
  const path = (id: string) => ({ params: { path: { id } } });

  const properties = {
    /**
     * Registers a reference (201), or answers the property it already is (200). With an
     * `idempotencyKey`, a retry answers as the first call did (201 included).
     */
    create: (cadastralReference: string, idempotencyKey?: string) =>
      unwrap(
        client.POST("/properties", {
          body: { cadastral_reference: cadastralReference },
          headers: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {},
        }),
      ),
    get: (id: string) => unwrap(client.GET("/properties/{id}", path(id))),
    list: (query: ListPropertiesQuery = {}) => unwrap(client.GET("/properties", { params: { query } })),
    /** Every property (of a status), newest first. */
    all: (query: Omit<ListPropertiesQuery, "starting_after"> = {}) =>
      pages<Property, string>((after) => properties.list({ ...query, starting_after: after })),
    /** The property of a reference (normalised as on create), or null. */
    byReference: async (cadastralReference: string) =>
      (await properties.list({ cadastral_reference: cadastralReference })).data[0] ?? null,
  };

  const batches = {
    /** A portfolio as JSON items (up to 10,000); the same Idempotency-Key answers the batch it created. */
    create: (body: Schemas["CreateBatchRequest"], idempotencyKey?: string) =>
      submitted(
        client.POST("/batches", { body, headers: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {} }),
      ),
    /**
     * A portfolio as a CSV file or an XLSX workbook (its first sheet): a header row, among the first
     * 20 rows, naming `cadastral_reference` (or `referencia_catastral`, `refcat`) and optionally
     * `external_id`, or the columns named by `referenceColumn` and `externalIdColumn`. A workbook is
     * recognised by `format: "xlsx"` or a Blob of the XLSX media type.
     */
    upload: (file: string | Blob, options: UploadOptions = {}) => {
      const format = options.format ?? (typeof file !== "string" && file.type === UPLOAD_TYPES.xlsx ? "xlsx" : "csv");
      const query = {
        ...(options.name ? { name: options.name } : {}),
        ...(options.referenceColumn ? { reference_column: options.referenceColumn } : {}),
        ...(options.externalIdColumn ? { external_id_column: options.externalIdColumn } : {}),
      };
      return submitted(
        client.POST("/batches", {
          params: { query },
          // The file travels as it is; its media type is the one the API reads it by.
          body: file,
          bodySerializer: (body) => body,
          headers: {
            "Content-Type": UPLOAD_TYPES[format],
            ...(options.idempotencyKey ? { "Idempotency-Key": options.idempotencyKey } : {}),
          },
        }),
      );
    },
    get: (id: string) => unwrap(client.GET("/batches/{id}", path(id))),
    list: (query: { limit?: number; starting_after?: string } = {}) =>
      unwrap(client.GET("/batches", { params: { query } })),
    all: () => pages<Batch, string>((after) => batches.list({ starting_after: after })),
    cancel: (id: string) => unwrap(client.DELETE("/batches/{id}", path(id))),
    items: (id: string, query: ListItemsQuery = {}) =>
      unwrap(client.GET("/batches/{id}/items", { params: { path: { id }, query } })),
    /** Every item (of a status), in input order. */
    allItems: (id: string, query: Omit<ListItemsQuery, "starting_after"> = {}) =>
      pages<BatchItem, number>((after) => batches.items(id, { ...query, starting_after: after })),
    /**
     * The results as a stream of CSV (UTF-8 with BOM), an XLSX workbook (typed cells, texts as given) or
     * NDJSON (`{item, property}` a line).
     */
    results: async (id: string, format: keyof typeof RESULTS_ACCEPT = "csv"): Promise<ReadableStream<Uint8Array>> => {
      const answer = client.GET("/batches/{id}/results", {
        ...path(id),
        headers: { Accept: RESULTS_ACCEPT[format] },
        parseAs: "stream",
      });
      return unwrap(answer as Promise<Answer<ReadableStream<Uint8Array>>>);
    },
    /** Polls the batch until every item is final (`completed_at`), telling `onProgress` each time. */
    wait: async (
      id: string,
      options: { intervalMs?: number; onProgress?: (batch: Batch) => void; signal?: AbortSignal } = {},
    ) => {
      for (;;) {
        const batch = await batches.get(id);
        options.onProgress?.(batch);
        if (batch.completed_at) return batch;
        await sleep(options.intervalMs ?? 2000, options.signal);
      }
    },
  };

  const webhookEndpoints = {
    list: () => unwrap(client.GET("/webhook-endpoints")),
    /**
     * The answer's `secret` (whsec_…) is shown this once. With an `idempotencyKey`, a retry of the same
     * request within 24 h answers the endpoint the first one created (and its secret), creating nothing.
     */
    create: (body: Schemas["CreateWebhookEndpointRequest"], idempotencyKey?: string) =>
      unwrap(
        client.POST("/webhook-endpoints", {
          body,
          headers: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {},
        }),
      ),
    /** Changes the members given (`url`, `description`, `event_types`); the secret stays. */
    update: (id: string, body: Schemas["UpdateWebhookEndpointRequest"]) =>
      unwrap(client.PATCH("/webhook-endpoints/{id}", { ...path(id), body })),
    delete: async (id: string) => {
      await unwrap(client.DELETE("/webhook-endpoints/{id}", path(id)));
    },
  };

  return {
    properties,
    batches,
    webhookEndpoints,
    coverage: () => unwrap(client.GET("/coverage")),
    /** The typed openapi-fetch client itself, for anything the helpers above do not cover. */
    client,
  };
}

export type Finca = ReturnType<typeof createFinca>;

/** An event as Finca sends it: `property.enriched` (a Property), `batch.completed` (a Batch) or `webhook.test`. */
export type WebhookEvent =
  | { type: "property.enriched"; timestamp: string; data: Property }
  | { type: "batch.completed"; timestamp: string; data: Batch }
  | { type: "webhook.test"; timestamp: string; data: { endpoint_id: string; message: string } };

/**
 * A delivery's headers as a server hands them over: Fetch's `Headers` (Next.js, Hono, Deno, Bun,
 * workers), Node's `IncomingHttpHeaders` (`node:http`, Express, Fastify: values may be lists or
 * missing) or a plain object of strings. Names are matched in any case.
 */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

const WEBHOOK_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

/** Fetch's `Headers` (a runtime without fetch has no such class). */
const isFetchHeaders = (headers: WebhookHeaders): headers is Headers =>
  typeof Headers !== "undefined" && headers instanceof Headers;

/** The three Standard Webhooks headers of a delivery, by their lower-case names. */
function webhookHeaders(headers: WebhookHeaders): Record<string, string> {
  const found: Record<string, string> = {};
  if (isFetchHeaders(headers)) {
    for (const name of WEBHOOK_HEADERS) {
      const value = headers.get(name);
      if (value !== null) found[name] = value;
    }
    return found;
  }
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || !WEBHOOK_HEADERS.some((h) => h === lower)) continue;
    // A header sent twice arrives as a list: signatures are a space-separated list anyway, and two
    // ids or timestamps joined match no signature, so the delivery is refused rather than guessed.
    found[lower] = typeof value === "string" ? value : value.join(" ");
  }
  return found;
}

/**
 * Verifies a delivery with the endpoint's `whsec_` secret (Standard Webhooks: the raw body as
 * received, and its `webhook-id`, `webhook-timestamp` and `webhook-signature` headers) and returns
 * the event; throws when a header is missing or the signature or the timestamp does not hold.
 * `headers` may be `req.headers` of `node:http` or Express, a Fetch `Request`'s `headers`, or a
 * plain object; `rawBody` the text or the bytes as received (before any JSON parsing).
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  return new Webhook(secret).verify(body, webhookHeaders(headers)) as WebhookEvent;
}
