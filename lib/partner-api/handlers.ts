// The handlers of the partner API, one per entry of ./contract.ts and typed by it: each receives
// its request parsed by the entry's schemas (by the wrapper, ./route.ts) and may reply only what the
// entry declares. Handlers call the domain's commands and reads; they hold no SQL.
import { DomainError, type WriteBudget } from "@/lib/domain";
import {
  cancelBatch,
  getBatch,
  listBatches,
  listItems,
  exportResults,
  resultsContentType,
  RESULTS_MEDIA_TYPES,
  type ResultsFormat,
  submitBatch,
} from "@/lib/batches";
import { apiKeyIsActive, type Principal } from "@/lib/api-keys";
import { hasLiveAccess } from "@/lib/partners/live";
import { keyActor } from "@/lib/audit";
import { coverage } from "@/lib/registers";
import { createProperty, getProperty, listProperties, referenceOf, registeredIdSql } from "@/lib/properties";
import { listEndpoints, toEndpoint } from "@/lib/webhooks/endpoints";
import { addEndpoint, changeEndpoint, removeEndpoint } from "@/lib/webhooks/commands";
import { listenSecret, listenStream } from "@/lib/webhooks/listen";
import { normalizeReference } from "@/lib/cadastral-reference";
import { askedOrigin } from "@/lib/http/origin";
import { readBatchRequest } from "./batch-request";
import type { contract } from "./contract";
import { openApiDocument } from "./openapi";
import { BASE_PATH, type Handlers } from "./operation";
import { LISTEN_LIVE_KEY, listenSessionsRefusal, notFoundDetail } from "./schemas";

const notFound = (what: string) => new DomainError("not_found", notFoundDetail(what));

const unknownCursor = (what: string) =>
  new DomainError("validation_error", "The query parameters are invalid.", [
    { parameter: "starting_after", detail: `does not name ${what} of this partner and mode` },
  ]);

/** The results format an `Accept` header asks for: XLSX or NDJSON when named, else CSV (the default). */
const resultsFormat = (accept: string | null): ResultsFormat => {
  const asked = (accept ?? "").toLowerCase();
  if (asked.includes(RESULTS_MEDIA_TYPES.xlsx)) return "xlsx";
  return asked.includes(RESULTS_MEDIA_TYPES.ndjson) ? "ndjson" : "csv";
};

const batchLocation = (id: string) => ({ Location: `${BASE_PATH}/batches/${id}` });
/** A write through the API: the key acts (its visible start in the history), counted with its check. */
const by = (principal: Principal, budget: WriteBudget) => ({ actor: keyActor(principal.visibleStart), budget });

export const handlers: Handlers<typeof contract> = {
  createProperty: {
    // The repeat check rides on the key's statement: a create is that and its insert.
    lookup: { input: ({ body }) => referenceOf(body), sql: registeredIdSql },
    async handle({ deps, body, headers, principal, budget, startedAt, looked, about }) {
      const { created, property } = await createProperty(deps, principal, budget, body, {
        idempotencyKey: headers["Idempotency-Key"] ?? null,
        startedAt,
        registeredId: looked.found,
      });
      about.propertyId = property.property_id;
      return created
        ? { status: 201, body: property, headers: { Location: `${BASE_PATH}/properties/${property.property_id}` } }
        : { status: 200, body: property };
    },
  },

  async listProperties({ deps, query, principal, about }) {
    const reference =
      query.cadastral_reference === undefined ? undefined : normalizeReference(query.cadastral_reference);
    const page = await listProperties(deps.db, principal, {
      limit: query.limit,
      startingAfter: query.starting_after,
      status: query.status,
      reference,
    });
    if (!page) throw unknownCursor("a property");
    // A look-up by reference is about the property it found.
    if (reference !== undefined && page.data.length === 1) about.propertyId = page.data[0]!.property_id;
    return { status: 200, body: page };
  },

  async getProperty({ deps, path, principal, about }) {
    const property = await getProperty(deps.db, principal, path.id);
    if (!property) throw notFound("property");
    about.propertyId = property.property_id;
    return { status: 200, body: property };
  },

  async createBatch({ deps, req, headers, query, principal, budget }) {
    const key = headers["Idempotency-Key"] ?? null;
    const read = () => readBatchRequest(req, query, key, deps, principal.partnerId);
    const { created, batch } = await submitBatch(deps, principal, budget, read, key);
    return { status: created ? 202 : 200, body: batch, headers: batchLocation(batch.batch_id) };
  },

  async listBatches({ deps, query, principal }) {
    const page = await listBatches(deps.db, principal, { limit: query.limit, startingAfter: query.starting_after });
    if (!page) throw unknownCursor("a batch");
    return { status: 200, body: page };
  },

  async getBatch({ deps, path, principal }) {
    const batch = await getBatch(deps.db, principal, path.id);
    if (!batch) throw notFound("batch");
    return { status: 200, body: batch };
  },

  async cancelBatch({ deps, path, principal, budget }) {
    const batch = await cancelBatch(deps, principal, budget, path.id);
    if (!batch) throw notFound("batch");
    return { status: 200, body: batch };
  },

  async listBatchItems({ deps, query, path, principal }) {
    const page = await listItems(deps.db, principal, path.id, {
      limit: query.limit,
      startingAfter: query.starting_after,
      status: query.status,
    });
    if (!page) throw notFound("batch");
    return { status: 200, body: page };
  },

  async getBatchResults({ deps, req, path, principal }) {
    const results = await exportResults(deps.db, principal, path.id);
    if (!results) throw notFound("batch");
    const { batch } = results;
    const format = resultsFormat(req.headers.get("accept"));
    const headers: Record<string, string> = { "Content-Type": resultsContentType(format) };
    if (format !== "ndjson")
      headers["Content-Disposition"] = `attachment; filename="batch-${batch.batch_id}.${format}"`;
    // HEAD is answered as GET without a body: nothing to read for it.
    if (req.method === "HEAD") return { status: 200, stream: null, headers };
    const stream = results.stream(format);
    return { status: 200, stream, headers };
  },

  async listWebhookEndpoints({ deps, principal }) {
    return { status: 200, body: { data: (await listEndpoints(deps.db, principal)).map(toEndpoint) } };
  },

  async createWebhookEndpoint({ deps, body, headers, principal, budget }) {
    // A repeat with the same Idempotency-Key answers as the first request did (the contract: same status).
    const key = headers["Idempotency-Key"] ?? null;
    const { endpoint, secret } = await addEndpoint(deps, principal, by(principal, budget), body, key);
    return {
      status: 201,
      body: { ...toEndpoint(endpoint), secret },
      headers: { Location: `${BASE_PATH}/webhook-endpoints/${endpoint.id}` },
    };
  },

  async updateWebhookEndpoint({ deps, body, path, principal, budget }) {
    const endpoint = await changeEndpoint(deps, principal, by(principal, budget), path.id, body);
    if (!endpoint) throw notFound("webhook endpoint");
    return { status: 200, body: toEndpoint(endpoint) };
  },

  async deleteWebhookEndpoint({ deps, path, principal, budget }) {
    if (!(await removeEndpoint(deps, principal, by(principal, budget), path.id))) throw notFound("webhook endpoint");
    return { status: 204 };
  },

  async listenWebhooks({ deps, req, principal }) {
    if (principal.mode !== "test") throw new DomainError("validation_error", LISTEN_LIVE_KEY);
    const free = deps.listenSlots.take(principal.partnerId, await hasLiveAccess(deps.db, principal.partnerId));
    if (typeof free !== "function")
      throw new DomainError(
        "rate_limited",
        free.refused === "process"
          ? "This server holds all the listen sessions it can at once: retry in a minute."
          : listenSessionsRefusal(deps.config.LISTEN_MAX_SESSIONS),
      );
    const headers = {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    };
    if (req.method === "HEAD") {
      free();
      return { status: 200, stream: null, headers };
    }
    const stream = listenStream(deps.listenHub, principal, listenSecret(req.headers.get("x-api-key")!.trim()), {
      pollMs: deps.config.LISTEN_POLL_MS,
      heartbeatMs: 15_000,
      signal: req.signal,
      stopping: () => deps.shuttingDown?.() ?? false,
      keyActive: () => apiKeyIsActive(deps.db, principal.apiKeyId),
      keyCheckMs: deps.config.LISTEN_KEY_CHECK_MS,
      maxSessionMs: deps.config.LISTEN_MAX_SESSION_SECONDS * 1000,
      onClose: free,
    });
    return { status: 200, stream, headers };
  },

  async getCoverage({ deps }) {
    return { status: 200, body: { data: await coverage(deps.db, deps.config.REGISTER_STALE_DAYS) } };
  },

  // Placed on the origin it was asked on where PUBLIC_BASE_URL is unset (the portal's docs do the same).
  async getOpenApiDocument({ deps, req }) {
    const body = openApiDocument(deps.config, askedOrigin(req.headers) ?? undefined);
    // Without PUBLIC_BASE_URL it is placed on the origin asked: a shared cache must key it by that too.
    if (deps.config.PUBLIC_BASE_URL) return { status: 200, body };
    return { status: 200, body, headers: { Vary: "Host, X-Forwarded-Host, X-Forwarded-Proto" } };
  },
};
