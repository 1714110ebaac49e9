import { describe, expect, it } from "vitest";
import { generateApiKey, revokeApiKey } from "@/lib/api-keys";
import { BASE, newPartnerKey, problemOf, useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { batchOf, postJson } from "../support/batches";

let t: TestApp;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t } = ctx));

const id = "6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b";
const requests = (headers: Record<string, string>): [string, keyof TestApp["api"], () => Request][] => [
  [
    "POST /batches",
    "createBatch",
    () => postJson({ items: [{ cadastral_reference: "2749704YJ0624N0001DI" }] }, headers),
  ],
  ["GET /batches", "listBatches", () => new Request(`${BASE}/batches`, { headers })],
  ["GET /batches/{id}", "getBatch", () => new Request(`${BASE}/batches/${id}`, { headers })],
  ["DELETE /batches/{id}", "cancelBatch", () => new Request(`${BASE}/batches/${id}`, { method: "DELETE", headers })],
  ["GET /batches/{id}/items", "listBatchItems", () => new Request(`${BASE}/batches/${id}/items`, { headers })],
  ["GET /batches/{id}/results", "getBatchResults", () => new Request(`${BASE}/batches/${id}/results`, { headers })],
];

async function expect401(res: Response) {
  expect(res.status).toBe(401);
  expect(await problemOf(res)).toMatchObject({ status: 401, code: "missing_api_key" });
  // Unauthenticated writes are not counted.
  expect(res.headers.get("ratelimit")).toBeNull();
}

describe("batch operations → 401 missing_api_key", () => {
  for (const [name, op, request] of requests({})) {
    it(`${name} without a key`, async () =>
      expect401(await (t.api[op] as (r: Request) => Promise<Response>)(request())));
  }
  for (const [name, op, request] of requests({ "X-API-Key": generateApiKey("test") })) {
    it(`${name} with an unknown key`, async () =>
      expect401(await (t.api[op] as (r: Request) => Promise<Response>)(request())));
  }

  it("a revoked key reads nothing of its batches", async () => {
    const made = await newPartnerKey(t.app);
    const batch = await batchOf(
      await t.api.createBatch(postJson({ items: [{ cadastral_reference: "bad" }] }, { "X-API-Key": made.key })),
    );
    await revokeApiKey(t.app.db, made.apiKey.id);
    await expect401(
      await t.api.getBatch(new Request(`${BASE}/batches/${batch.batch_id}`, { headers: { "X-API-Key": made.key } })),
    );
  });
});
