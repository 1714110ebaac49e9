// What an operator sees of a create whose cadastre answers only on the durable retry (sandbox
// scenario 9100), its property.enriched delivered on the second attempt, a repeat and a 429: the
// Prometheus metrics (through GET /metrics) and the structured log lines (captured from the App's
// logger), which name requests, jobs and deliveries by id and never hold a key or a secret.
import { afterAll, beforeAll, expect, it } from "vitest";
import { scenarioReference } from "@/lib/enrichment/sources/sandbox";
import { createLogger } from "@/lib/observability/logger";
import { createTestApp, newPartnerKey, post, type TestApp } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { eventually } from "../support/wait";
import { serve } from "./support";

type Line = Record<string, unknown> & { level: number; msg: string };
const lines: Line[] = [];
const raw: string[] = [];
let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  const logger = createLogger({
    level: "debug",
    format: "json",
    destination: { write: (s: string) => void (raw.push(s), lines.push(JSON.parse(s))) },
  });
  t = await createTestApp({
    workers: true,
    logger,
    env: {
      ENRICHMENT_DEADLINE_MS: "400",
      ENRICHMENT_RETRY_SCHEDULE_TEST: "1,2,4",
      ENRICHMENT_RETRY_JITTER: "0",
      FINCA_WEBHOOKS_ALLOW_PRIVATE: "1",
      WEBHOOK_RETRY_SCHEDULE_TEST: "1,1,1",
      RATE_LIMIT_WRITES: "3",
    },
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const sample = (text: string, name: string, labels: Record<string, string> = {}) => {
  const line = text
    .split("\n")
    .find(
      (l) =>
        (l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`))) ||
        l.startsWith(`${name} `),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
};

it("counts creates, a retried enrichment and a retried delivery; logs each request, job run and delivery attempt without secrets", async () => {
  const { key, partner } = await newPartnerKey(t.app);
  const endpoint = await t.api.createWebhookEndpoint(
    post("/webhook-endpoints", { url: receiver.url }, { "X-API-Key": key }),
  );
  const { secret } = await endpoint.json();
  receiver.script({ status: 503, body: "busy" });
  const reference = scenarioReference("9100", "observed");
  const created = await t.api.createProperty(
    post("/properties", { cadastral_reference: reference }, { "X-API-Key": key, "X-Request-Id": "obs-create" }),
  );
  expect(created.status).toBe(201);
  const { property_id } = await created.json();
  expect(
    (await t.api.createProperty(post("/properties", { cadastral_reference: reference }, { "X-API-Key": key }))).status,
  ).toBe(200);
  // The 4th write in the window: 429.
  expect(
    (await t.api.createProperty(post("/properties", { cadastral_reference: reference }, { "X-API-Key": key }))).status,
  ).toBe(429);
  await eventually(
    "property.enriched received on the second attempt",
    () => receiver.received.filter((r) => r.body.includes(property_id)).length === 2,
  );
  await eventually("the successful attempt logged", () =>
    lines.some((l) => l.msg === "webhook delivery attempt" && l.outcome === "succeeded"),
  );

  const server = await serve(t);
  let text: string;
  try {
    const res = await fetch(server.url("/metrics"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    text = await res.text();
  } finally {
    await server.close();
  }
  expect(sample(text, "finca_property_creates_total", { mode: "test", outcome: "created" })).toBe(1);
  expect(sample(text, "finca_property_creates_total", { mode: "test", outcome: "existing" })).toBe(1);
  expect(sample(text, "finca_property_creates_total", { mode: "test", outcome: "rate_limited" })).toBe(1);
  expect(sample(text, "finca_rate_limit_rejections_total", { mode: "test" })).toBe(1);
  expect(sample(text, "finca_http_requests_total", { route: "createProperty", method: "POST", status: "201" })).toBe(1);
  expect(
    sample(text, "finca_http_request_duration_seconds_count", {
      route: "createProperty",
      method: "POST",
      status: "201",
    }),
  ).toBe(1);
  // The cadastre: a timeout at the create's deadline (no register answered: provider none), then an
  // answer in the first durable run.
  expect(
    sample(text, "finca_enrichment_attempts_total", {
      source: "cadastre",
      provider: "none",
      trigger: "inline",
      outcome: "timeout",
    }),
  ).toBe(1);
  expect(
    sample(text, "finca_enrichment_attempts_total", {
      source: "cadastre",
      provider: "sandbox",
      trigger: "job",
      outcome: "completed",
    }),
  ).toBe(1);
  expect(sample(text, "finca_job_runs_total", { queue: "enrich", outcome: "completed" })).toBeGreaterThanOrEqual(1);
  expect(sample(text, "finca_webhook_deliveries_total", { outcome: "retry" })).toBe(1);
  expect(sample(text, "finca_webhook_deliveries_total", { outcome: "succeeded" })).toBe(1);
  expect(sample(text, "finca_webhook_event_to_receipt_seconds_count")).toBe(1);
  for (const queue of ["enrich", "deliver-webhook"]) {
    expect(sample(text, "finca_queue_jobs", { queue, state: "waiting" })).toBeGreaterThanOrEqual(0);
    expect(sample(text, "finca_queue_oldest_waiting_seconds", { queue })).toBeGreaterThanOrEqual(0);
  }
  expect(sample(text, "finca_register_breaker_state", { provider: "catastro-ovc", state: "closed" })).toBe(1);
  expect(text).toMatch(/^process_cpu_user_seconds_total /m);
  expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);

  // One line per request, with what identifies it and never the key.
  const requests = lines.filter((l) => l.msg === "request");
  expect(requests.map((l) => [l.route, l.status])).toEqual([
    ["createWebhookEndpoint", 201],
    ["createProperty", 201],
    ["createProperty", 200],
    ["createProperty", 429],
  ]);
  expect(requests[1]).toMatchObject({
    requestId: "obs-create",
    method: "POST",
    path: "/api/v1/partner-api/properties",
    partnerId: partner.id,
    mode: "test",
    keyStart: key.slice(0, 17),
    errorCode: null,
  });
  expect(typeof requests[1]!.durationMs).toBe("number");
  const jobs = lines.filter((l) => l.msg === "job run");
  expect(jobs.some((l) => l.queue === "enrich" && l.propertyId === property_id && l.outcome === "completed")).toBe(
    true,
  );
  expect(jobs.some((l) => l.queue === "deliver-webhook" && l.outcome === "completed")).toBe(true);
  const deliveries = lines.filter((l) => l.msg === "webhook delivery attempt");
  expect(deliveries.map((l) => [l.attempt, l.outcome, l.statusCode])).toEqual([
    [1, "retry", 503],
    [2, "succeeded", 200],
  ]);
  expect(deliveries[1]).toMatchObject({ partnerId: partner.id, eventType: "property.enriched", mode: "test" });
  // Every line about the delivery names the webhook-id its receiver saw (what a partner quotes).
  const webhookId = receiver.received.at(-1)!.headers["webhook-id"];
  expect(webhookId).toMatch(/^msg_/);
  expect(deliveries.map((l) => l.messageId)).toEqual([webhookId, webhookId]);
  const runs = jobs.filter((l) => l.queue === "deliver-webhook");
  expect(runs.length).toBeGreaterThanOrEqual(2);
  for (const run of runs) expect(run.messageId).toBe(webhookId);
  const all = raw.join("");
  expect(all).not.toContain(key);
  expect(all).not.toContain(secret);
  expect(all).not.toContain(secret.replace(/^whsec_/, ""));
  expect(all).not.toContain(receiver.url);
});
