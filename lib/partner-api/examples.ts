// The OpenAPI document's examples, one world: a test key registers 2749704YJ0624N0001DI, then a
// portfolio of it and a mistyped reference, and adds a webhook endpoint. The property, the batch,
// its items, the endpoint and the coverage are what the API answered (the sandbox's data, ids and
// times as they were), captured through its handlers on 2026-11-29; the cancelled batch, the
// update and the events' ids are made to match. Each is typed by its schema here, and
// test/openapi/examples.test.ts parses every example of the document with its operation's
// schemas. Texts the product writes (errors, CSV, NDJSON, the listen stream) are made by the code
// that writes them.
import { z } from "zod";
import type { Config } from "@/lib/config";
import {
  DomainError,
  parseBody,
  parseQuery,
  type Batch,
  type BatchItem,
  type CommunityCoverage,
  type Property,
} from "@/lib/domain";
import { rateLimited } from "@/lib/rate-limit";
import { checkReference, referenceProblem } from "@/lib/cadastral-reference";
import { csvLines, ndjsonLines, RESULT_COLUMNS, resultCells } from "@/lib/batches";
import type { UpdateWebhookEndpointInput } from "@/lib/webhooks/commands";
import type { WebhookEndpoint } from "@/lib/webhooks/endpoints";
import { messageIdOf } from "@/lib/webhooks/events";
import { sse } from "@/lib/webhooks/listen";
import { webhookHeaders } from "@/lib/webhooks/sign";
import type { ProblemExample } from "./operation";

export const PROPERTY_ID = "b330fa5d-2feb-46a5-ace6-fcb991777049";
export const BATCH_ID = "ff6d4f27-3e6b-4192-a734-3c4d472da1b0";
export const ENDPOINT_ID = "203950f4-3d73-4b19-a7ee-411cc2aa08b8";
export const REFERENCE = "2749704YJ0624N0001DI";
/** REFERENCE with its last check letter mistyped. */
const MISTYPED = "2749704YJ0624N0001DX";
export const REQUEST_ID = "req_4c5350e83ebc41739d02ff596962f722";

/** What the API says of a reference it refuses (a create's 400 and a batch item's error say the same). */
function refusal(reference: string): string {
  const check = checkReference(reference);
  if (check.ok) throw new Error(`${reference} is a valid reference: it cannot be an invalid one's example`);
  return referenceProblem(check);
}
export const REFUSED_REFERENCE = refusal(MISTYPED);

/** A source the sandbox answered at once, at `updatedAt`. */
export const sandboxSource = (updatedAt: string) => ({
  status: "completed" as const,
  attempts: 1,
  updated_at: updatedAt,
  error: null,
  provider: "sandbox",
  as_of: null,
  retrieved_at: null,
  dataset: null,
  licence: null,
});

export const property: Property = {
  property_id: PROPERTY_ID,
  cadastral_reference: REFERENCE,
  status: "enriched",
  address: "PS MARITIMO 2 Es:1 Pl:00 Pt:C 41701 SAN JUAN DE AZNALFARACHE (SEVILLA)",
  municipality: "San Juan de Aznalfarache",
  province: "Sevilla",
  ccaa: "Andalucía",
  year_built: 1904,
  climate_zone: "B4",
  energy_certificate: {
    rating: "G",
    source: "registry",
    emissions_rating: "G",
    primary_energy_kwh_m2_year: 497.69,
    emissions_kg_co2_m2_year: 93,
    issued_on: "2016-02-07",
    registered_on: "2016-02-11",
    valid_until: "2026-02-07",
    valid_until_source: "derived",
    expired: true,
    scope: "unit",
    registry: "sandbox",
    certificate_id: "SBX-41-Q0QF9X",
    probabilities: null,
    confidence: null,
    basis: null,
    plausible_range: null,
  },
  ite_fetch_status: "unsupported",
  ite: {
    status: "unsupported",
    inspected_on: null,
    result: null,
    next_due_on: null,
    overdue: null,
    registry: null,
    reference: null,
  },
  use: "commercial",
  use_label: "Comercial",
  built_area_m2: 107,
  plot_area_m2: 1156,
  units_in_parcel: null,
  unit: { staircase: "1", floor: "00", door: "C" },
  postal_code: "41701",
  municipality_code: "41086",
  location: { latitude: 37.368054, longitude: -6.028324 },
  enrichment: {
    cadastre: sandboxSource("2026-11-29T03:00:46.981Z"),
    energy_certificate: sandboxSource("2026-11-29T03:00:46.997Z"),
    ite: sandboxSource("2026-11-29T03:00:46.998Z"),
  },
  attribution: [],
  created_at: "2026-11-29T03:00:46.998Z",
  updated_at: "2026-11-29T03:00:46.998Z",
  enriched_at: "2026-11-29T03:00:46.998Z",
};

export const BATCH_NAME = "Hipotecas 2026-Q3";
/** The portfolio's request: the registered reference again, and the mistyped one. */
export const batchRequest = {
  name: BATCH_NAME,
  items: [
    { cadastral_reference: REFERENCE, external_id: "loan-0001" },
    { cadastral_reference: MISTYPED, external_id: "loan-0002" },
  ],
};

/** The same portfolio as a CSV upload (its name then goes in `?name=`). */
export const batchCsv = csvLines([
  ["cadastral_reference", "external_id"],
  ...batchRequest.items.map((i) => [i.cadastral_reference, i.external_id]),
]);

const counts = { total: 2, invalid: 1, duplicate: 0, pending: 0, enriched: 0, partially_enriched: 0, not_found: 0 };

/** As accepted (202): the mistyped item is final at once, the other waits for its turn. */
export const acceptedBatch: Batch = {
  batch_id: BATCH_ID,
  name: batchRequest.name,
  status: "queued",
  counts: { ...counts, pending: 1, cancelled: 0 },
  created_at: "2026-11-29T03:00:47.224Z",
  started_at: null,
  completed_at: null,
};

/** Completed: the registered reference reused its property. */
export const completedBatch: Batch = {
  ...acceptedBatch,
  status: "completed",
  counts: { ...counts, enriched: 1, cancelled: 0 },
  started_at: "2026-11-29T03:00:47.689Z",
  completed_at: "2026-11-29T03:00:48.193Z",
};

/** Cancelled while it ran: the item not yet started ends `cancelled`. */
export const cancelledBatch: Batch = {
  ...acceptedBatch,
  status: "cancelled",
  counts: { ...counts, cancelled: 1 },
  started_at: "2026-11-29T03:00:47.689Z",
  completed_at: "2026-11-29T03:00:47.702Z",
};

export const batchItems: BatchItem[] = [
  {
    line: 1,
    cadastral_reference: REFERENCE,
    external_id: "loan-0001",
    status: "enriched",
    property_id: PROPERTY_ID,
    error: null,
  },
  {
    line: 2,
    cadastral_reference: MISTYPED,
    external_id: "loan-0002",
    status: "invalid",
    property_id: null,
    error: { code: "invalid_cadastral_reference", detail: REFUSED_REFERENCE },
  },
];

const results = batchItems.map((item) => ({ item, property: item.property_id ? property : null }));
/** The results as the download writes them (the CSV's byte-order mark left out). */
export const resultsCsv = csvLines([RESULT_COLUMNS, ...results.map(resultCells)]);
export const resultsNdjson = ndjsonLines(results);

export const endpoint: WebhookEndpoint = {
  id: ENDPOINT_ID,
  url: "https://hooks.example.com/finca",
  description: "Loan system",
  event_types: ["property.enriched", "batch.completed"],
  enabled: true,
  disabled_reason: null,
  created_at: "2026-11-29T03:00:49.457Z",
};
/** Pausing the endpoint, and sending it portfolios only. */
export const endpointUpdate = { event_types: ["batch.completed"], enabled: false } satisfies UpdateWebhookEndpointInput;

/** A signing secret of the product's form (not one any endpoint has). */
export const SECRET = "whsec_53WRNMpah/Ipg6t7zlyITPrlubJQRnKb520ajWTOA5Y=";

/** A listen session: its secret, then the portfolio's `batch.completed` as a delivery signs it. */
export const listenEvents = (() => {
  const id = messageIdOf("0b9c2f61-7d4e-4a8b-9f3c-2e5d8a1b6c47");
  const at = new Date(completedBatch.completed_at ?? 0);
  const body = JSON.stringify({ type: "batch.completed", timestamp: at.toISOString(), data: completedBatch });
  return (
    sse("session", { secret: SECRET, mode: "test" }) +
    sse("webhook", { id, type: "batch.completed", headers: webhookHeaders([SECRET], id, at, body), body })
  );
})();

export const andalucia: CommunityCoverage = {
  ccaa: "Andalucía",
  cadastre: {
    kind: "live",
    providers: [
      {
        provider: "catastro-ovc",
        kind: "live",
        dataset: null,
        as_of: null,
        stale: null,
        rows: null,
        format_evidence: "confirmed",
        citations: [
          "DGC's manual of the OVC services (Consulta_DNPRC, Consulta_CPMRC)",
          "at least eight independent public clients (shared research, registers-coverage.md)",
          "answers recorded from the live service (lib/enrichment/sources/cadastre/fixtures)",
        ],
        licence: "Catastro's terms of reuse (free, with source notice)",
        attribution: "Dirección General del Catastro",
      },
    ],
    partial: false,
    area: null,
  },
  energy_certificate: {
    kind: "estimate",
    providers: [
      {
        provider: "estimate",
        kind: "estimate",
        dataset: null,
        as_of: null,
        stale: null,
        rows: null,
        format_evidence: null,
        citations: [],
        licence: null,
        attribution: null,
      },
    ],
    partial: false,
    area: null,
  },
  ite: { kind: "unsupported", providers: [], partial: false, area: null },
  note: null,
};

/** The 422 the product answers to `attempt`'s request: what its parser throws. */
function refused(attempt: () => unknown): ProblemExample {
  try {
    attempt();
  } catch (error) {
    if (error instanceof DomainError) return { detail: error.detail, errors: error.errors };
  }
  throw new Error("the example's request was not refused");
}
/** A JSON body that is no object, refused as every body is. */
export const notAnObject = refused(() => parseBody(z.object({}), []));
/** A query parameter no operation takes, refused as every query's is. */
export const unknownParameter = refused(() => parseQuery(z.strictObject({}), new URL("https://x.example/?page=2")));

/** A write over the limit, 17 s before a slot frees. */
export const rateLimitedFor = (config: Config): ProblemExample =>
  rateLimited({
    allowed: false,
    limit: config.RATE_LIMIT_WRITES,
    remaining: 0,
    resetSeconds: 17,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
  });
