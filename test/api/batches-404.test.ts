import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { BASE, newPartnerKey, problemOf, useTestApp, type TestApp, grantLive } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { batchOf, postJson } from "../support/batches";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

const operations = (id: string, k: string): [string, (api: TestApp["api"]) => Promise<Response>][] => {
  const headers = { "X-API-Key": k };
  return [
    ["GET /batches/{id}", (api) => api.getBatch(new Request(`${BASE}/batches/${id}`, { headers }))],
    [
      "DELETE /batches/{id}",
      (api) => api.cancelBatch(new Request(`${BASE}/batches/${id}`, { method: "DELETE", headers })),
    ],
    ["GET /batches/{id}/items", (api) => api.listBatchItems(new Request(`${BASE}/batches/${id}/items`, { headers }))],
    [
      "GET /batches/{id}/results",
      (api) => api.getBatchResults(new Request(`${BASE}/batches/${id}/results`, { headers })),
    ],
  ];
};

async function expect404(res: Response) {
  expect(res.status).toBe(404);
  expect(await problemOf(res)).toMatchObject({ status: 404, code: "not_found" });
}

describe("batch operations → 404 not_found", () => {
  it("another partner's batch, and the same partner's batch in the other mode, are not found (and stay as they were)", async () => {
    const owner = await newPartnerKey(t.app);
    const batch = await batchOf(
      await t.api.createBatch(postJson({ items: [{ cadastral_reference: "bad" }] }, { "X-API-Key": owner.key })),
    );
    await grantLive(t.app, owner.partner.id);
    const live = await createApiKey(t.app.db, { partnerId: owner.partner.id, mode: "live", name: "live" });
    for (const k of [key, live.key]) {
      for (const [name, call] of operations(batch.batch_id, k)) {
        const res = await call(t.api);
        expect(res.status, name).toBe(404);
        await expect404(res);
      }
    }
    const own = await t.api.getBatch(
      new Request(`${BASE}/batches/${batch.batch_id}`, { headers: { "X-API-Key": owner.key } }),
    );
    expect((await batchOf(own)).status).not.toBe("cancelled");
  });

  it.each([
    ["an unknown id", "6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b"],
    ["not an id", "latest"],
    ["bad percent-encoding", "%E0%A4%A"],
  ])("%s", async (_, id) => {
    for (const [, call] of operations(id, key)) await expect404(await call(t.api));
  });
});
