// The table of API operations. The Next.js route, the lean server's routing (with its 404 and 405)
// and the OpenAPI document are all derived from it: to add an endpoint, add an entry here.
import { z } from "zod";
import { Batch, Coverage, DomainError, Property, type WriteBudget } from "@/lib/domain";
import {
  cancelBatch,
  getBatch,
  listBatches,
  listItems,
  RESULT_COLUMNS,
  exportResults,
  submitBatch,
} from "@/lib/batches";
import { apiKeyIsActive, type Principal } from "@/lib/api-keys";
import { hasLiveAccess } from "@/lib/partners/live";
import { keyActor } from "@/lib/audit";
import { coverage } from "@/lib/registers";
import {
  createProperty,
  CreatePropertyBody,
  getProperty,
  listProperties,
  referenceOf,
  registeredIdSql,
} from "@/lib/properties";
import { listEndpoints, toEndpoint, WebhookEndpoint } from "@/lib/webhooks/endpoints";
import {
  addEndpoint,
  changeEndpoint,
  CreateWebhookEndpointBody,
  removeEndpoint,
  UpdateWebhookEndpointBody,
} from "@/lib/webhooks/commands";
import { listenSecret, listenStream } from "@/lib/webhooks/listen";
import { normalizeReference } from "@/lib/cadastral-reference";
import { idempotencyKey, readJsonBody } from "./request";
import {
  BatchItemList,
  BatchList,
  CreateBatchBody,
  CreateBatchCsv,
  CreateBatchQuery,
  IdempotencyHeaders,
  IdParam,
  ListBatchesQuery,
  ListBatchItemsQuery,
  ListPropertiesQuery,
  PropertyList,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from "./schemas";
import { readBatchRequest } from "./batch-request";
import { buildOpenApiDocument } from "./openapi";
import type { Config } from "@/lib/config";
import {
  answer,
  BASE_PATH,
  createdAnswer,
  defineOperation,
  emptyAnswer,
  problemAnswer,
  streamAnswer,
} from "./operation";

const notFound = (what: string) =>
  new DomainError("not_found", `No ${what} with this id for this API key's partner and mode.`);

const unknownCursor = (what: string) =>
  new DomainError("validation_error", "The query parameters are invalid.", [
    { parameter: "starting_after", detail: `does not name ${what} of this partner and mode` },
  ]);

const batchLocation = (id: string) => ({ Location: `${BASE_PATH}/batches/${id}` });
const notFoundAnswer = problemAnswer("`not_found`");
/** A write through the API: the key acts (its visible start in the history), counted with its check. */
const by = (principal: Principal, budget: WriteBudget) => ({ actor: keyActor(principal.visibleStart), budget });

export const operations = [
  defineOperation({
    id: "createProperty",
    method: "POST",
    path: "/properties",
    tag: "Properties",
    authenticated: true,
    write: true,
    summary: "Register a property",
    description: () =>
      "Normalises the reference (trim, remove spaces and hyphens, upper-case), validates it, and answers within the enrichment deadline with what is known. Idempotent per reference: a repeat answers 200 with the existing property. With an `Idempotency-Key`, a repeat within 24 h answers as the first request did: 201 with the property it registered (as it is now); the key with another reference is a 422.",
    request: { body: CreatePropertyBody, headers: IdempotencyHeaders },
    responses: {
      "200": answer("The reference was already registered: the existing property.", Property),
      "201": createdAnswer(
        "Registered (or, with its Idempotency-Key within 24 h, registered by that key's first request).",
        Property,
      ),
      "400": problemAnswer(
        "`invalid_cadastral_reference`: not 14 or 20 characters of [0-9A-ZÑ], or wrong check letters.",
      ),
    },
    // The repeat check rides on the key's statement: a create is that and its insert.
    lookup: {
      input: async (req) => {
        const body = await readJsonBody(req);
        return { value: referenceOf(body), body };
      },
      sql: registeredIdSql,
    },
    async handle({ deps, req, principal, budget, startedAt, looked, about }) {
      const { created, property } = await createProperty(deps, principal, budget, looked!.body, {
        idempotencyKey: idempotencyKey(req),
        startedAt,
        registeredId: looked!.found,
      });
      about.propertyId = property.property_id;
      return created
        ? { status: 201, body: property, headers: { Location: `${BASE_PATH}/properties/${property.property_id}` } }
        : { status: 200, body: property };
    },
  }),
  defineOperation({
    id: "listProperties",
    method: "GET",
    path: "/properties",
    tag: "Properties",
    authenticated: true,
    write: false,
    summary: "List properties, newest first",
    description: () =>
      "Properties of this key's partner and mode, newest first. Pass the page's `next_starting_after` as `starting_after` for the next page; `status` keeps only properties in that state; `cadastral_reference` finds the property of a reference.",
    request: { query: ListPropertiesQuery },
    responses: { "200": answer("A page of properties.", PropertyList) },
    async handle({ deps, query, principal, about }) {
      const reference =
        query.cadastral_reference === undefined ? undefined : normalizeReference(query.cadastral_reference);
      const page = await listProperties(deps.db, principal, {
        limit: query.limit,
        startingAfter: query.starting_after,
        status: query.status,
        reference,
      });
      if (!page) {
        throw new DomainError("validation_error", "The query parameters are invalid.", [
          { parameter: "starting_after", detail: "does not name a property of this partner and mode" },
        ]);
      }
      // A look-up by reference is about the property it found.
      if (reference !== undefined && page.data.length === 1) about.propertyId = page.data[0]!.property_id;
      return { status: 200, body: page };
    },
  }),
  defineOperation({
    id: "getProperty",
    method: "GET",
    path: "/properties/{id}",
    tag: "Properties",
    authenticated: true,
    write: false,
    summary: "Get a property",
    description: () =>
      "The property as it stands now: members still being enriched are null until their source finishes (`enrichment` says which).",
    request: { path: IdParam },
    responses: { "200": answer("The property.", Property), "404": notFoundAnswer },
    async handle({ deps, path, principal, about }) {
      const property = path.id ? await getProperty(deps.db, principal, path.id) : null;
      if (!property) throw notFound("property");
      about.propertyId = property.property_id;
      return { status: 200, body: property };
    },
  }),
  defineOperation({
    id: "createBatch",
    method: "POST",
    path: "/batches",
    tag: "Portfolios",
    authenticated: true,
    write: true,
    summary: "Register a portfolio",
    description: (config) =>
      `Registers many references in one request, counted once against the write limit. The body is JSON (1 to 10,000 items) or CSV (\`text/csv\`, up to ${config.BATCH_MAX_ITEMS.toLocaleString("en")} rows and ${config.BATCH_MAX_BYTES / 1024 / 1024} MiB; name it with \`?name=\`). Answers 202 with the batch at once; each valid item is then registered exactly as a create would (a reference you registered before reuses its property) and enriched in the background, \`property.enriched\` per new property and \`batch.completed\` at the end. A bad reference never fails the request: its item is \`invalid\`. At most ${config.BATCH_MAX_ACTIVE} batches queued or running per mode.`,
    request: {
      query: CreateBatchQuery,
      headers: IdempotencyHeaders,
      body: CreateBatchBody,
      alsoAccepts: { "text/csv": CreateBatchCsv },
    },
    responses: {
      "200": createdAnswer(
        "This Idempotency-Key created a batch within 24 h: that batch (nothing new was created).",
        Batch,
      ),
      "202": createdAnswer("Accepted: the batch, queued.", Batch),
      "409": problemAnswer(
        "`too_many_active_batches`: too many batches of this partner and mode are queued or running.",
      ),
    },
    async handle({ deps, req, query, principal, budget }) {
      const read = () => readBatchRequest(req, query, deps, principal.partnerId);
      const { created, batch } = await submitBatch(deps, principal, budget, read);
      return { status: created ? 202 : 200, body: batch, headers: batchLocation(batch.batch_id) };
    },
  }),
  defineOperation({
    id: "listBatches",
    method: "GET",
    path: "/batches",
    tag: "Portfolios",
    authenticated: true,
    write: false,
    summary: "List batches, newest first",
    description: () =>
      "Batches of this key's partner and mode, newest first. Pass the page's `next_starting_after` as `starting_after` for the next page.",
    request: { query: ListBatchesQuery },
    responses: { "200": answer("A page of batches.", BatchList) },
    async handle({ deps, query, principal }) {
      const page = await listBatches(deps.db, principal, { limit: query.limit, startingAfter: query.starting_after });
      if (!page) throw unknownCursor("a batch");
      return { status: 200, body: page };
    },
  }),
  defineOperation({
    id: "getBatch",
    method: "GET",
    path: "/batches/{id}",
    tag: "Portfolios",
    authenticated: true,
    write: false,
    summary: "Get a batch",
    description: () => "The batch with its counts per item status (refreshed about every second while it runs).",
    request: { path: IdParam },
    responses: { "200": answer("The batch.", Batch), "404": notFoundAnswer },
    async handle({ deps, path, principal }) {
      const batch = await getBatch(deps.db, principal, path.id ?? "");
      if (!batch) throw notFound("batch");
      return { status: 200, body: batch };
    },
  }),
  defineOperation({
    id: "cancelBatch",
    method: "DELETE",
    path: "/batches/{id}",
    tag: "Portfolios",
    authenticated: true,
    write: true,
    summary: "Cancel a batch",
    description: () =>
      "Items not yet started end `cancelled`; items already registered finish enriching, and `batch.completed` follows once they have. A batch already completed or cancelled is answered as it is.",
    request: { path: IdParam },
    responses: { "200": answer("The batch, cancelled.", Batch), "404": notFoundAnswer },
    async handle({ deps, path, principal, budget }) {
      const batch = await cancelBatch(deps, principal, budget, path.id ?? "");
      if (!batch) throw notFound("batch");
      return { status: 200, body: batch };
    },
  }),
  defineOperation({
    id: "listBatchItems",
    method: "GET",
    path: "/batches/{id}/items",
    tag: "Portfolios",
    authenticated: true,
    write: false,
    summary: "List a batch's items, in input order",
    description: () =>
      "Items in input order (by `line`); `status` keeps only items in that state. Pass the page's `next_starting_after` (a line) as `starting_after` for the next page.",
    request: { path: IdParam, query: ListBatchItemsQuery },
    responses: { "200": answer("A page of items.", BatchItemList), "404": notFoundAnswer },
    async handle({ deps, query, path, principal }) {
      const page = await listItems(deps.db, principal, path.id ?? "", {
        limit: query.limit,
        startingAfter: query.starting_after,
        status: query.status,
      });
      if (!page) throw notFound("batch");
      return { status: 200, body: page };
    },
  }),
  defineOperation({
    id: "getBatchResults",
    method: "GET",
    path: "/batches/{id}/results",
    tag: "Portfolios",
    authenticated: true,
    write: false,
    summary: "Download a batch's results (CSV or NDJSON)",
    description: () =>
      "Every item in input order with its property's data, streamed: CSV (default; UTF-8 with BOM, RFC 4180; cells starting with =, +, - or @ are prefixed with `'`) or NDJSON with `Accept: application/x-ndjson` (`{item, property}` a line). Available while the batch runs: what is known so far.",
    request: { path: IdParam },
    responses: {
      "200": streamAnswer("The results.", {
        "text/csv": z.string().meta({ description: `Columns: ${RESULT_COLUMNS.join(", ")}.` }),
        "application/x-ndjson": z.string().meta({
          description: "One JSON object a line: `{item, property}` (property null when the item has none).",
        }),
      }),
      "404": notFoundAnswer,
    },
    async handle({ deps, req, path, principal }) {
      const results = await exportResults(deps.db, principal, path.id ?? "");
      if (!results) throw notFound("batch");
      const { batch } = results;
      const ndjson = /application\/x-ndjson/i.test(req.headers.get("accept") ?? "");
      const headers: Record<string, string> = ndjson
        ? { "Content-Type": "application/x-ndjson; charset=utf-8" }
        : {
            "Content-Type": "text/csv; charset=utf-8",
            "Content-Disposition": `attachment; filename="batch-${batch.batch_id}.csv"`,
          };
      // HEAD is answered as GET without a body: nothing to read for it.
      if (req.method === "HEAD") return { status: 200, stream: null, headers };
      const stream = results.stream(ndjson ? "ndjson" : "csv");
      return { status: 200, stream, headers };
    },
  }),
  defineOperation({
    id: "listWebhookEndpoints",
    method: "GET",
    path: "/webhook-endpoints",
    tag: "Webhook endpoints",
    authenticated: true,
    write: false,
    summary: "List webhook endpoints",
    description: () =>
      "The webhook endpoints of this key's partner and mode, without their signing secrets (the portal reveals and rotates them).",
    responses: { "200": answer("Endpoints of this partner and mode (secrets are not listed).", WebhookEndpointList) },
    async handle({ deps, principal }) {
      return { status: 200, body: { data: (await listEndpoints(deps.db, principal)).map(toEndpoint) } };
    },
  }),
  defineOperation({
    id: "createWebhookEndpoint",
    method: "POST",
    path: "/webhook-endpoints",
    tag: "Webhook endpoints",
    authenticated: true,
    write: true,
    summary: "Add a webhook endpoint",
    description: () =>
      "Live mode requires https. Addresses in private, loopback, link-local and reserved ranges are refused.",
    request: { body: CreateWebhookEndpointBody, headers: IdempotencyHeaders },
    responses: {
      "201": createdAnswer(
        "Created; `secret` is shown only now. A repeat of the request with its Idempotency-Key within 24 h answers the same again (that endpoint, its secret) and creates nothing.",
        WebhookEndpointWithSecret,
      ),
    },
    async handle({ deps, req, principal, budget }) {
      const key = idempotencyKey(req);
      // A repeat with the same Idempotency-Key answers as the first request did (the contract: same status).
      const { endpoint, secret } = await addEndpoint(
        deps,
        principal,
        by(principal, budget),
        await readJsonBody(req),
        key,
      );
      return {
        status: 201,
        body: { ...toEndpoint(endpoint), secret },
        headers: { Location: `${BASE_PATH}/webhook-endpoints/${endpoint.id}` },
      };
    },
  }),
  defineOperation({
    id: "updateWebhookEndpoint",
    method: "PATCH",
    path: "/webhook-endpoints/{id}",
    tag: "Webhook endpoints",
    authenticated: true,
    write: true,
    summary: "Update a webhook endpoint",
    description: () =>
      "Changes the members sent (at least one of `url`, `description`, `event_types`, `enabled`); the others stay. A new URL follows the rules of a create (live mode requires https; private, loopback, link-local and reserved addresses are refused) and takes effect from the next attempt, retries of earlier events included. The signing secret does not change.",
    request: { path: IdParam, body: UpdateWebhookEndpointBody },
    responses: {
      "200": answer("The endpoint as updated (its secret is not shown).", WebhookEndpoint),
      "404": notFoundAnswer,
    },
    async handle({ deps, req, path, principal, budget }) {
      const endpoint = await changeEndpoint(
        deps,
        principal,
        by(principal, budget),
        path.id ?? "",
        await readJsonBody(req),
      );
      if (!endpoint) throw notFound("webhook endpoint");
      return { status: 200, body: toEndpoint(endpoint) };
    },
  }),
  defineOperation({
    id: "deleteWebhookEndpoint",
    method: "DELETE",
    path: "/webhook-endpoints/{id}",
    tag: "Webhook endpoints",
    authenticated: true,
    write: true,
    summary: "Delete a webhook endpoint",
    description: () => "Stops deliveries to the endpoint at once; deliveries already made stay visible in the portal.",
    request: { path: IdParam },
    responses: { "204": emptyAnswer("Deleted."), "404": notFoundAnswer },
    async handle({ deps, path, principal, budget }) {
      if (!(await removeEndpoint(deps, principal, by(principal, budget), path.id ?? "")))
        throw notFound("webhook endpoint");
      return { status: 204 };
    },
  }),
  defineOperation({
    id: "listenWebhooks",
    method: "GET",
    path: "/webhooks/listen",
    tag: "Webhook endpoints",
    authenticated: true,
    write: false,
    summary: "Stream test-mode events for local forwarding (finca listen)",
    description: (config) =>
      `Test keys only. A Server-Sent Events stream: first a \`session\` event with the signing secret of this key's listen sessions (\`{"secret":"whsec_…"}\`, the same on every connection), then one \`webhook\` event per test-mode event recorded after the connection opened, within ${config.LISTEN_POLL_MS} ms: \`{"id","type","headers","body"}\`, where \`headers\` are the Standard Webhooks headers signed over \`body\` exactly as a delivery is. \`finca listen --forward-to <url>\` (the SDK's CLI) POSTs each to a local receiver. Comment lines keep the stream alive; at most ${config.LISTEN_MAX_SESSIONS} sessions per partner at once. The stream ends with an \`error\` event once the key is revoked or past a roll's expiry (checked every ${config.LISTEN_KEY_CHECK_MS} ms), and with \`end\` (\`{"reason":"session_limit"}\`) after ${config.LISTEN_MAX_SESSION_SECONDS} s: reconnect.`,
    responses: {
      "200": streamAnswer("The event stream (text/event-stream); it ends when the client or the server goes.", {
        "text/event-stream": z.string(),
      }),
      "422": problemAnswer("`validation_error`: a live key (live events go to your registered endpoints)."),
      "429": problemAnswer(
        (config) =>
          `\`rate_limited\`: ${config.LISTEN_MAX_SESSIONS} listen sessions of this partner are open already, or the server holds all it can: ${config.LISTEN_MAX_TOTAL_SESSIONS} of all partners, of which organisations without live access hold ${config.LISTEN_TEST_ONLY_PERCENT} % at most.`,
      ),
    },
    async handle({ deps, req, principal }) {
      if (principal.mode !== "test")
        throw new DomainError(
          "validation_error",
          "finca listen works with test keys only: live events go to your registered endpoints.",
        );
      const free = deps.listenSlots.take(principal.partnerId, await hasLiveAccess(deps.db, principal.partnerId));
      if (typeof free !== "function")
        throw new DomainError(
          "rate_limited",
          free.refused === "process"
            ? "This server holds all the listen sessions it can at once: retry in a minute."
            : `At most ${deps.config.LISTEN_MAX_SESSIONS} listen sessions per partner at once: close one and retry.`,
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
  }),
  defineOperation({
    id: "getCoverage",
    method: "GET",
    path: "/coverage",
    tag: "Coverage",
    authenticated: true,
    write: false,
    summary: "What each register covers, per autonomous community",
    description: () =>
      "For each of the 19 autonomous communities and cities, and each source (cadastre, energy certificate, ITE), the providers asked in order and the best kind among them: `live` (a register queried by reference), `index` (a local copy of an open dataset, with its `as_of` date and row count), `rules` (ITE age rules only), `estimate` (energy only) or `unsupported`. País Vasco and Navarra keep foral cadastres the national cadastre does not cover.",
    responses: { "200": answer("Coverage per community.", Coverage) },
    async handle({ deps }) {
      return { status: 200, body: { data: await coverage(deps.db, deps.config.REGISTER_STALE_DAYS) } };
    },
  }),
  defineOperation({
    id: "getOpenApiDocument",
    method: "GET",
    path: "/openapi.json",
    tag: "Meta",
    authenticated: false,
    write: false,
    summary: "This OpenAPI document",
    description: () =>
      "The OpenAPI 3.1 document of this API, generated from the same schemas that validate requests. No key needed.",
    responses: { "200": answer("The OpenAPI 3.1 document of this API.", z.looseObject({})) },
    async handle({ deps }) {
      return { status: 200, body: openApiDocument(deps.config) };
    },
  }),
] as const;

export type OperationId = (typeof operations)[number]["id"];

/** The OpenAPI document of these operations. */
export const openApiDocument = (config: Config): Record<string, unknown> => buildOpenApiDocument(operations, config);
