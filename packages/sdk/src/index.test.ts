// The SDK against the real partner API on the lean server: typed calls, problem+json as
// FincaApiError, a 429 waited out, pages walked, a portfolio uploaded, followed and its results
// read, a webhook verified.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { checkLetters } from "@/lib/cadastral-reference";
import { createPartnerApiServer } from "@/lib/partner-api/node-server";
import { createTestApp, newPartnerKey, type TestApp } from "@/test/support/app";
import { createFinca, FincaApiError, verifyWebhook, type Finca } from "./index";

let t: TestApp;
let server: Server;
let finca: Finca;
let origin = "";
beforeAll(async () => {
  t = await createTestApp({ workers: true, env: { RATE_LIMIT_WRITES: "12", RATE_LIMIT_WINDOW_SECONDS: "2" } });
  server = createPartnerApiServer(t.api);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  finca = createFinca({ apiKey: (await newPartnerKey(t.app)).key, baseUrl: origin });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const unit = (n: number) => {
  const parcel = `${String(5200000 + n).padStart(7, "0")}YJ0624N`;
  return parcel + "0001" + checkLetters(parcel + "0001");
};

describe("the SDK", () => {
  it("registers, reads and finds properties, typed", async () => {
    const created = await finca.properties.create(unit(1));
    expect(created.cadastral_reference).toBe(unit(1));
    expect((await finca.properties.get(created.property_id)).property_id).toBe(created.property_id);
    expect((await finca.properties.byReference(unit(1).toLowerCase()))?.property_id).toBe(created.property_id);
    expect(await finca.properties.byReference(unit(999))).toBeNull();
    // With a key, a retry is the first answer; the key with another reference is refused.
    const keyed = await finca.properties.create(unit(2), "sdk-unit-2");
    expect((await finca.properties.create(unit(2), "sdk-unit-2")).property_id).toBe(keyed.property_id);
    const refused = await finca.properties.create(unit(3), "sdk-unit-2").catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 422, code: "validation_error" });
  });

  it("turns problem+json answers into FincaApiError with the code, detail and request id", async () => {
    const missing = await finca.properties.get("6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(FincaApiError);
    expect(missing).toMatchObject({ status: 404, code: "not_found", requestId: expect.stringMatching(/^req_/) });
    const invalid = await finca.properties.create("nonsense").catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: "invalid_cadastral_reference" });
    const refused = await createFinca({ apiKey: "finca_test_nope", baseUrl: origin })
      .coverage()
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401, code: "missing_api_key" });
  });

  it("waits out a 429 as Retry-After says, and walks every page", async () => {
    const own = createFinca({ apiKey: (await newPartnerKey(t.app)).key, baseUrl: origin });
    // 12 writes per 2 s: the 13th to 15th are answered after the window frees a slot.
    const created = [];
    for (let n = 100; n < 115; n++) created.push(await own.properties.create(unit(n)));
    expect(created).toHaveLength(15);
    const seen = [];
    for await (const property of own.properties.all({ limit: 4 })) seen.push(property.property_id);
    expect(seen).toEqual(created.map((p) => p.property_id).reverse());
  });

  it("retries a 429 after its Retry-After, sending the same request again, and gives up after maxRetries", async () => {
    const sent: string[] = [];
    const problem = {
      type: "/docs/errors#rate_limited",
      title: "Rate limit exceeded",
      status: 429,
      detail: "slow down",
      code: "rate_limited",
      request_id: "req_1",
    };
    const limited = () =>
      new Response(JSON.stringify(problem), {
        status: 429,
        headers: { "Content-Type": "application/problem+json", "Retry-After": "1" },
      });
    const answers = [
      limited(),
      new Response(JSON.stringify({ data: [] }), { headers: { "Content-Type": "application/json" } }),
    ];
    const fake: typeof fetch = async (input) => {
      sent.push(await (input as Request).text());
      return answers.shift() ?? limited();
    };
    const retried = createFinca({ apiKey: "finca_test_x", baseUrl: origin, fetch: fake });
    expect(await retried.webhookEndpoints.list()).toEqual({ data: [] });
    expect(sent).toHaveLength(2);
    const impatient = createFinca({ apiKey: "finca_test_x", baseUrl: origin, fetch: fake, maxRetries: 0 });
    await expect(impatient.properties.create(unit(200))).rejects.toMatchObject({ status: 429, code: "rate_limited" });
    expect(sent.at(-1)).toBe(JSON.stringify({ cadastral_reference: unit(200) }));
  });

  it("uploads a portfolio, follows it to the end and reads its results", async () => {
    const csv = `refcat,external_id\n${unit(300)},a\nbad,b\n`;
    const { batch: accepted, created } = await finca.batches.upload(csv, {
      name: "SDK book",
      idempotencyKey: "sdk-book-1",
    });
    expect(created).toBe(true);
    expect(accepted).toMatchObject({ name: "SDK book", counts: { total: 2, invalid: 1 } });
    const again = await finca.batches.upload(csv, { name: "SDK book", idempotencyKey: "sdk-book-1" });
    expect(again).toMatchObject({ created: false, batch: { batch_id: accepted.batch_id } });
    const progress: number[] = [];
    const done = await finca.batches.wait(accepted.batch_id, {
      intervalMs: 200,
      onProgress: (b) => progress.push(b.counts.pending),
    });
    expect(done.counts).toMatchObject({ enriched: 1, invalid: 1, pending: 0 });
    expect(progress.at(-1)).toBe(0);
    const items = [];
    for await (const item of finca.batches.allItems(accepted.batch_id)) items.push(item.status);
    expect(items).toEqual(["enriched", "invalid"]);
    const text = await new Response(await finca.batches.results(accepted.batch_id, "ndjson")).text();
    expect(
      text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).item.external_id),
    ).toEqual(["a", "b"]);
    const json = await finca.batches.create({ items: [{ cadastral_reference: unit(301) }] });
    expect(json.batch.counts.total).toBe(1);
  });

  it("creates a webhook endpoint once per idempotency key: a retry answers the same endpoint and secret", async () => {
    const first = await finca.webhookEndpoints.create({ url: "https://hooks.example.com/sdk-once" }, "sdk-once");
    const retry = await finca.webhookEndpoints.create({ url: "https://hooks.example.com/sdk-once" }, "sdk-once");
    expect(retry).toEqual(first);
    const other = await finca.webhookEndpoints
      .create({ url: "https://hooks.example.com/sdk-other" }, "sdk-once")
      .catch((e: unknown) => e);
    expect(other).toMatchObject({ status: 422, code: "validation_error" });
  });

  it("updates a webhook endpoint in place; an unknown one is a FincaApiError 404", async () => {
    const { id } = await finca.webhookEndpoints.create({ url: "https://hooks.example.com/sdk-old" });
    const updated = await finca.webhookEndpoints.update(id, {
      url: "https://hooks.example.com/sdk-new",
      description: "moved",
    });
    expect(updated).toMatchObject({ id, url: "https://hooks.example.com/sdk-new", description: "moved" });
    expect(updated).not.toHaveProperty("secret");
    expect((await finca.webhookEndpoints.list()).data.find((e) => e.id === id)?.url).toBe(
      "https://hooks.example.com/sdk-new",
    );
    const missing = await finca.webhookEndpoints
      .update("00000000-0000-4000-8000-000000000000", { description: "x" })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(FincaApiError);
    expect((missing as FincaApiError).status).toBe(404);
    await finca.webhookEndpoints.delete(id);
  });

  it("verifies a webhook with the endpoint's secret, and refuses a forged one", async () => {
    const { secret } = await finca.webhookEndpoints.create({
      url: "https://hooks.example.com/sdk",
      event_types: ["batch.completed"],
    });
    const body = JSON.stringify({
      type: "webhook.test",
      timestamp: new Date().toISOString(),
      data: { endpoint_id: "e", message: "hi" },
    });
    const headers = new Webhook(secret).sign("msg_1", new Date(), body);
    const webhookHeaders = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
      "webhook-signature": headers,
    };
    expect(verifyWebhook(body, webhookHeaders, secret)).toMatchObject({
      type: "webhook.test",
      data: { message: "hi" },
    });
    expect(() => verifyWebhook(body.replace("hi", "ho"), webhookHeaders, secret)).toThrow();
  });
});
