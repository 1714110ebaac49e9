// The contract of the partner API: each operation's place, flags, documentation, request schemas
// and declared answers, importing only domain schemas and types. Its handlers are ./handlers.ts;
// the Next.js route, the lean server's routing (with its 404 and 405) and the OpenAPI document all
// derive from this one table (./operations.ts joins the two): to add an endpoint, add an entry here
// and its handler there.
import { z } from "zod";
import { Batch, Coverage, Property } from "@/lib/domain";
import { RESULT_COLUMNS, RESULTS_MEDIA_TYPES, tooManyActiveBatches } from "@/lib/batches";
import { CreatePropertyInput } from "@/lib/properties";
import { HEADER_ROWS } from "@/lib/spreadsheets/header";
import { WebhookEndpoint } from "@/lib/webhooks/endpoints";
import { CreateWebhookEndpointInput, UpdateWebhookEndpointInput } from "@/lib/webhooks/commands";
import {
  BatchItemList,
  BatchList,
  CreateBatchBody,
  CreateBatchCsv,
  CreateBatchQuery,
  CreateBatchXlsx,
  IdempotencyHeaders,
  idParam,
  LISTEN_LIVE_KEY,
  listenSessionsRefusal,
  ListBatchesQuery,
  ListBatchItemsQuery,
  ListPropertiesQuery,
  PropertyList,
  WebhookEndpointList,
  notFoundDetail,
  WebhookEndpointWithSecret,
} from "./schemas";
import * as example from "./examples";
import { answer, createdAnswer, emptyAnswer, problemAnswer, streamAnswer, type Contract } from "./operation";

const notFoundAnswer = (what: string) => problemAnswer("`not_found`", { detail: notFoundDetail(what) });

export const contract = [
  {
    id: "createProperty",
    method: "POST",
    path: "/properties",
    tag: "Properties",
    authenticated: true,
    write: true,
    summary: "Register a property",
    description: () =>
      "Normalises the reference (trim, remove spaces and hyphens, upper-case), validates it, and answers within the enrichment deadline with what is known. Idempotent per reference: a repeat answers 200 with the existing property. With an `Idempotency-Key`, a repeat within 24 h answers as the first request did: 201 with the property it registered (as it is now); the key with another reference is a 422.",
    request: {
      body: CreatePropertyInput,
      headers: IdempotencyHeaders,
      examples: { body: { cadastral_reference: example.REFERENCE } },
    },
    responses: {
      "200": answer("The reference was already registered: the existing property.", Property, example.property),
      "201": createdAnswer(
        "Registered (or, with its Idempotency-Key within 24 h, registered by that key's first request).",
        Property,
        example.property,
      ),
      "400": problemAnswer(
        "`invalid_cadastral_reference`: not 14 or 20 characters of [0-9A-ZÑ], or wrong check letters.",
        { detail: example.REFUSED_REFERENCE },
      ),
    },
  },
  {
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
    responses: {
      "200": answer("A page of properties.", PropertyList, {
        data: [example.property],
        has_more: true,
        next_starting_after: example.PROPERTY_ID,
      }),
    },
  },
  {
    id: "getProperty",
    method: "GET",
    path: "/properties/{id}",
    tag: "Properties",
    authenticated: true,
    write: false,
    summary: "Get a property",
    description: () =>
      "The property as it stands now: members still being enriched are null until their source finishes (`enrichment` says which).",
    request: { path: idParam("property", example.PROPERTY_ID) },
    responses: { "200": answer("The property.", Property, example.property), "404": notFoundAnswer("property") },
  },
  {
    id: "createBatch",
    method: "POST",
    path: "/batches",
    tag: "Portfolios",
    authenticated: true,
    write: true,
    summary: "Register a portfolio",
    description: (config) =>
      `Registers many references in one request, counted once against the write limit. The body is JSON (1 to 10,000 items), CSV (\`text/csv\`) or an XLSX workbook (\`${RESULTS_MEDIA_TYPES.xlsx}\`, its first sheet), a file up to ${config.BATCH_MAX_ITEMS.toLocaleString("en")} rows and ${config.BATCH_MAX_BYTES / 1024 / 1024} MiB, read the same way as the portal and the CLI read it: its header row is found among the first ${HEADER_ROWS} rows (title rows above it are skipped); name the batch with \`?name=\`, and columns not named as the schema says with \`?reference_column=\` and \`?external_id_column=\`. A file where no row names a reference column is a 422 listing the accepted names. Answers 202 with the batch at once; each valid item is then registered exactly as a create would (a reference you registered before reuses its property) and enriched in the background, \`property.enriched\` per new property and \`batch.completed\` at the end. A bad reference never fails the request: its item is \`invalid\`. At most ${config.BATCH_MAX_ACTIVE} batches queued or running per mode.`,
    request: {
      query: CreateBatchQuery,
      headers: IdempotencyHeaders,
      body: CreateBatchBody,
      alsoAccepts: { "text/csv": CreateBatchCsv, [RESULTS_MEDIA_TYPES.xlsx]: CreateBatchXlsx },
      bodyReadByHandler: true,
      examples: { body: example.batchRequest, alsoAccepts: { "text/csv": example.batchCsv } },
    },
    responses: {
      "200": createdAnswer(
        "This Idempotency-Key created a batch within 24 h: that batch (nothing new was created).",
        Batch,
        example.completedBatch,
      ),
      "202": createdAnswer("Accepted: the batch, queued.", Batch, example.acceptedBatch),
      "409": problemAnswer(
        "`too_many_active_batches`: too many batches of this partner and mode are queued or running.",
        (config) => tooManyActiveBatches(config.BATCH_MAX_ACTIVE, config.BATCH_MAX_ACTIVE, "test"),
      ),
    },
  },
  {
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
    responses: {
      "200": answer("A page of batches.", BatchList, {
        data: [example.completedBatch],
        has_more: false,
        next_starting_after: null,
      }),
    },
  },
  {
    id: "getBatch",
    method: "GET",
    path: "/batches/{id}",
    tag: "Portfolios",
    authenticated: true,
    write: false,
    summary: "Get a batch",
    description: () => "The batch with its counts per item status (refreshed about every second while it runs).",
    request: { path: idParam("batch", example.BATCH_ID) },
    responses: { "200": answer("The batch.", Batch, example.completedBatch), "404": notFoundAnswer("batch") },
  },
  {
    id: "cancelBatch",
    method: "DELETE",
    path: "/batches/{id}",
    tag: "Portfolios",
    authenticated: true,
    write: true,
    summary: "Cancel a batch",
    description: () =>
      "Items not yet started end `cancelled`; items already registered finish enriching, and `batch.completed` follows once they have. A batch already completed or cancelled is answered as it is.",
    request: { path: idParam("batch", example.BATCH_ID) },
    responses: {
      "200": answer("The batch, cancelled.", Batch, example.cancelledBatch),
      "404": notFoundAnswer("batch"),
    },
  },
  {
    id: "listBatchItems",
    method: "GET",
    path: "/batches/{id}/items",
    tag: "Portfolios",
    authenticated: true,
    write: false,
    summary: "List a batch's items, in input order",
    description: () =>
      "Items in input order (by `line`); `status` keeps only items in that state. Pass the page's `next_starting_after` (a line) as `starting_after` for the next page.",
    request: { path: idParam("batch", example.BATCH_ID), query: ListBatchItemsQuery },
    responses: {
      "200": answer("A page of items.", BatchItemList, {
        data: example.batchItems,
        has_more: false,
        next_starting_after: null,
      }),
      "404": notFoundAnswer("batch"),
    },
  },
  {
    id: "getBatchResults",
    method: "GET",
    path: "/batches/{id}/results",
    tag: "Portfolios",
    authenticated: true,
    write: false,
    summary: "Download a batch's results (CSV, XLSX or NDJSON)",
    description: () =>
      "Every item in input order with its property's data, streamed: CSV (default; UTF-8 with BOM, RFC 4180; cells starting with =, +, - or @ are prefixed with `'`), an XLSX workbook with `Accept: " +
      RESULTS_MEDIA_TYPES.xlsx +
      "` (the CSV's columns as typed cells: numbers, dates, booleans; every text exactly as given, never a formula) or NDJSON with `Accept: application/x-ndjson` (`{item, property}` a line). To join back to a loan system by `external_id`, use XLSX or NDJSON: the CSV's `'` prefix changes such texts. Available while the batch runs: what is known so far.",
    request: { path: idParam("batch", example.BATCH_ID) },
    responses: {
      "200": streamAnswer(
        "The results.",
        {
          [RESULTS_MEDIA_TYPES.csv]: z.string().meta({ description: `Columns: ${RESULT_COLUMNS.join(", ")}.` }),
          [RESULTS_MEDIA_TYPES.xlsx]: z.string().meta({
            format: "binary",
            description:
              "One sheet, the CSV's columns in order: numbers, booleans and dates (UTC) as typed cells, " +
              "texts exactly as given.",
          }),
          [RESULTS_MEDIA_TYPES.ndjson]: z.string().meta({
            description: "One JSON object a line: `{item, property}` (property null when the item has none).",
          }),
        },
        { [RESULTS_MEDIA_TYPES.csv]: example.resultsCsv, [RESULTS_MEDIA_TYPES.ndjson]: example.resultsNdjson },
      ),
      "404": notFoundAnswer("batch"),
    },
  },
  {
    id: "listWebhookEndpoints",
    method: "GET",
    path: "/webhook-endpoints",
    tag: "Webhook endpoints",
    authenticated: true,
    write: false,
    summary: "List webhook endpoints",
    description: () =>
      "The webhook endpoints of this key's partner and mode, without their signing secrets (the portal reveals and rotates them).",
    responses: {
      "200": answer("Endpoints of this partner and mode (secrets are not listed).", WebhookEndpointList, {
        data: [example.endpoint],
      }),
    },
  },
  {
    id: "createWebhookEndpoint",
    method: "POST",
    path: "/webhook-endpoints",
    tag: "Webhook endpoints",
    authenticated: true,
    write: true,
    summary: "Add a webhook endpoint",
    description: () =>
      "Live mode requires https. Addresses in private, loopback, link-local and reserved ranges are refused.",
    request: {
      body: CreateWebhookEndpointInput,
      headers: IdempotencyHeaders,
      examples: {
        body: {
          url: example.endpoint.url,
          description: example.endpoint.description ?? undefined,
          event_types: example.endpoint.event_types,
        },
      },
    },
    responses: {
      "201": createdAnswer(
        "Created; `secret` is shown only now. A repeat of the request with its Idempotency-Key within 24 h answers the same again (that endpoint, its secret) and creates nothing.",
        WebhookEndpointWithSecret,
        { ...example.endpoint, secret: example.SECRET },
      ),
    },
  },
  {
    id: "updateWebhookEndpoint",
    method: "PATCH",
    path: "/webhook-endpoints/{id}",
    tag: "Webhook endpoints",
    authenticated: true,
    write: true,
    summary: "Update a webhook endpoint",
    description: () =>
      "Changes the members sent (at least one of `url`, `description`, `event_types`, `enabled`); the others stay. A new URL follows the rules of a create (live mode requires https; private, loopback, link-local and reserved addresses are refused) and takes effect from the next attempt, retries of earlier events included. The signing secret does not change.",
    request: {
      path: idParam("webhook endpoint", example.ENDPOINT_ID),
      body: UpdateWebhookEndpointInput,
      examples: { body: example.endpointUpdate },
    },
    responses: {
      "200": answer("The endpoint as updated (its secret is not shown).", WebhookEndpoint, {
        ...example.endpoint,
        ...example.endpointUpdate,
        disabled_reason: "disabled_by_partner",
      }),
      "404": notFoundAnswer("webhook endpoint"),
    },
  },
  {
    id: "deleteWebhookEndpoint",
    method: "DELETE",
    path: "/webhook-endpoints/{id}",
    tag: "Webhook endpoints",
    authenticated: true,
    write: true,
    summary: "Delete a webhook endpoint",
    description: () => "Stops deliveries to the endpoint at once; deliveries already made stay visible in the portal.",
    request: { path: idParam("webhook endpoint", example.ENDPOINT_ID) },
    responses: { "204": emptyAnswer("Deleted."), "404": notFoundAnswer("webhook endpoint") },
  },
  {
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
      "200": streamAnswer(
        "The event stream (text/event-stream); it ends when the client or the server goes.",
        { "text/event-stream": z.string() },
        { "text/event-stream": example.listenEvents },
      ),
      "422": problemAnswer("`validation_error`: a live key (live events go to your registered endpoints).", {
        detail: LISTEN_LIVE_KEY,
      }),
      "429": problemAnswer(
        (config) =>
          `\`rate_limited\`: ${config.LISTEN_MAX_SESSIONS} listen sessions of this partner are open already, or the server holds all it can: ${config.LISTEN_MAX_TOTAL_SESSIONS} of all partners, of which organisations without live access hold ${config.LISTEN_TEST_ONLY_PERCENT} % at most.`,
        (config) => ({ detail: listenSessionsRefusal(config.LISTEN_MAX_SESSIONS) }),
      ),
    },
  },
  {
    id: "getCoverage",
    method: "GET",
    path: "/coverage",
    tag: "Coverage",
    authenticated: true,
    write: false,
    summary: "What each register covers, per autonomous community",
    description: () =>
      "For each of the 19 autonomous communities and cities, and each source (cadastre, energy certificate, ITE), the providers asked in order and the best kind among them: `live` (a register queried by reference), `index` (a local copy of an open dataset, with its `as_of` date and row count), `rules` (ITE age rules only), `estimate` (energy only) or `unsupported`. País Vasco and Navarra keep foral cadastres the national cadastre does not cover.",
    responses: { "200": answer("Coverage per community.", Coverage, { data: [example.andalucia] }) },
  },
  {
    id: "getOpenApiDocument",
    method: "GET",
    path: "/openapi.json",
    tag: "Meta",
    authenticated: false,
    write: false,
    summary: "This OpenAPI document",
    description: () =>
      "The OpenAPI 3.1 document of this API, generated from the same schemas that validate requests. No key needed.",
    responses: {
      "200": answer("The OpenAPI 3.1 document of this API.", z.looseObject({}), {
        openapi: "3.1.0",
        info: { title: "Finca partner API", version: "1.0.0" },
      }),
    },
  },
] as const satisfies readonly Contract[];

export type OperationId = (typeof contract)[number]["id"];
