import { describe, expect, it } from "vitest";
import { BASE, newPartnerKey, problemOf, useTestApp, type TestApp, grantLive } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { batchOf, postJson } from "../support/batches";

let t: TestApp;
// No workers: accepted batches stay queued.
useTestApp({ sources: fakeSources(), env: { BATCH_MAX_ACTIVE: "2" } }, (ctx) => ({ t } = ctx));

const body = { items: [{ cadastral_reference: "2749704YJ0624N0001DI" }] };

describe("POST /batches → 409 too_many_active_batches", () => {
  it("refuses a batch beyond BATCH_MAX_ACTIVE queued or running in the mode; a cancel frees a place", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const first = await batchOf(await t.api.createBatch(postJson(body, { "X-API-Key": key })));
    expect((await t.api.createBatch(postJson(body, { "X-API-Key": key }))).status).toBe(202);
    const refused = await t.api.createBatch(postJson(body, { "X-API-Key": key }));
    expect(refused.status).toBe(409);
    expect(await problemOf(refused)).toMatchObject({
      status: 409,
      code: "too_many_active_batches",
      type: "/docs/errors#too_many_active_batches",
    });
    expect(refused.headers.get("ratelimit")).toMatch(/^"writes"/);

    // Other partners and the other mode are not held back.
    expect((await t.api.createBatch(postJson(body, { "X-API-Key": (await newPartnerKey(t.app)).key }))).status).toBe(
      202,
    );
    const { createApiKey } = await import("@/lib/api-keys");
    await grantLive(t.app, partner.id);
    const live = await createApiKey(t.app.db, { partnerId: partner.id, mode: "live", name: "live" });
    expect((await t.api.createBatch(postJson(body, { "X-API-Key": live.key }))).status).toBe(202);

    const cancel = await t.api.cancelBatch(
      new Request(`${BASE}/batches/${first.batch_id}`, { method: "DELETE", headers: { "X-API-Key": key } }),
    );
    expect((await batchOf(cancel)).status).toBe("cancelled");
    expect((await t.api.createBatch(postJson(body, { "X-API-Key": key }))).status).toBe(202);
  });

  it("refuses at the cap before reading the file: a body that never ends is answered", async () => {
    const { key } = await newPartnerKey(t.app);
    for (let i = 0; i < 2; i++)
      expect((await t.api.createBatch(postJson(body, { "X-API-Key": key }))).status).toBe(202);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        // The header row, then rows for as long as anyone reads.
        controller.enqueue(new TextEncoder().encode(pulled++ ? "2749704YJ0624N0001DI\n" : "cadastral_reference\n"));
        return new Promise((resolve) => setTimeout(resolve, 5));
      },
    });
    const refused = await t.api.createBatch(
      new Request(`${BASE}/batches`, {
        method: "POST",
        headers: { "X-API-Key": key, "Content-Type": "text/csv" },
        body: endless,
        duplex: "half",
      } as RequestInit),
    );
    expect(refused.status).toBe(409);
    expect(await problemOf(refused)).toMatchObject({ code: "too_many_active_batches" });
    // What a stream queues ahead of its reader at most: nothing of it was parsed.
    expect(pulled).toBeLessThanOrEqual(2);
  });

  it("a repeated Idempotency-Key still answers 200 when the partner is at its cap", async () => {
    const { key } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key, "Idempotency-Key": "at-cap" };
    expect((await t.api.createBatch(postJson(body, headers))).status).toBe(202);
    expect((await t.api.createBatch(postJson(body, { "X-API-Key": key }))).status).toBe(202);
    expect((await t.api.createBatch(postJson(body, headers))).status).toBe(200);
  });
});
