import { describe, expect, it } from "vitest";
import { BASE, newPartnerKey, problemOf, useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { postCsv, postJson } from "../support/batches";

let t: TestApp;
useTestApp({ sources: fakeSources(), env: { RATE_LIMIT_WRITES: "3", BATCH_MAX_ACTIVE: "10" } }, (ctx) => ({ t } = ctx));

describe("batch writes → 429 rate_limited", () => {
  it("a batch counts once whatever its size; a cancel counts; reads do not", async () => {
    const { key } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key };
    const rows = Array.from({ length: 500 }, (_, i) => `ref-${i}`).join("\n");
    const big = await t.api.createBatch(postCsv(`refcat\n${rows}\n`, headers));
    expect(big.status).toBe(202);
    expect(big.headers.get("ratelimit")).toMatch(/^"writes";r=2;/);
    const id = ((await big.json()) as { batch_id: string }).batch_id;
    expect(
      (await t.api.cancelBatch(new Request(`${BASE}/batches/${id}`, { method: "DELETE", headers }))).headers.get(
        "ratelimit",
      ),
    ).toMatch(/r=1;/);
    for (let i = 0; i < 3; i++)
      expect((await t.api.getBatch(new Request(`${BASE}/batches/${id}`, { headers }))).status).toBe(200);
    expect((await t.api.createBatch(postJson({ items: [{ cadastral_reference: "x" }] }, headers))).status).toBe(202);
    const refused = await t.api.createBatch(postJson({ items: [{ cadastral_reference: "x" }] }, headers));
    expect(refused.status).toBe(429);
    expect(await problemOf(refused)).toMatchObject({ code: "rate_limited" });
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("the limit comes before validation: an invalid batch over the limit is a 429", async () => {
    const { key } = await newPartnerKey(t.app);
    for (let i = 0; i < 3; i++) await t.api.createBatch(postJson({ items: [] }, { "X-API-Key": key }));
    expect((await t.api.createBatch(postJson({ items: [] }, { "X-API-Key": key }))).status).toBe(429);
  });
});
