import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { schema } from "@/lib/db";
import { newPartnerKey, problemOf, useTestApp, type TestApp } from "../support/app";
import { countOf } from "../support/database";
import { fakeSources } from "../support/fake-sources";
import { batchOf, postCsv, postJson } from "../support/batches";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

const items = [{ cadastral_reference: "2749704YJ0624N0001DI" }];
const batchesOf = (partnerId: string) =>
  countOf(t.app.db, sql`select 1 from ${schema.batches} where ${schema.batches.partnerId} = ${partnerId}`);

describe("POST /batches with an Idempotency-Key", () => {
  it("the same key and body within 24 h answers 200 with the batch it created and creates nothing", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key, "Idempotency-Key": "book-2026-11" };
    const first = await t.api.createBatch(postJson({ items }, headers));
    expect(first.status).toBe(202);
    const created = await batchOf(first);
    const again = await t.api.createBatch(postJson({ items }, headers));
    expect(again.status).toBe(200);
    expect(again.headers.get("location")).toBe(`/api/v1/partner-api/batches/${created.batch_id}`);
    expect((await batchOf(again)).batch_id).toBe(created.batch_id);
    expect(await batchesOf(partner.id)).toBe(1);
  });

  it("the same key with a CSV body: the same bytes repeat, other bytes are a 422 naming the header", async () => {
    const headers = { "X-API-Key": key, "Idempotency-Key": "csv-1" };
    const csv = "refcat\n2749704YJ0624N0001DI\n";
    expect((await t.api.createBatch(postCsv(csv, headers))).status).toBe(202);
    expect((await t.api.createBatch(postCsv(csv, headers))).status).toBe(200);
    const other = await t.api.createBatch(postCsv(`${csv}9872023VH5797S\n`, headers));
    expect(other.status).toBe(422);
    expect((await problemOf(other)).errors).toEqual([
      { header: "Idempotency-Key", detail: expect.stringMatching(/another body/) },
    ]);
  });

  it("another partner, or the other mode, may use the same key", async () => {
    const headers = (k: string) => ({ "X-API-Key": k, "Idempotency-Key": "shared" });
    const a = await newPartnerKey(t.app);
    const b = await newPartnerKey(t.app);
    const live = await newPartnerKey(t.app, "live");
    for (const k of [a.key, b.key, live.key])
      expect((await t.api.createBatch(postJson({ items }, headers(k)))).status).toBe(202);
  });

  it("after 24 h the key creates a new batch", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key, "Idempotency-Key": "daily" };
    const old = await batchOf(await t.api.createBatch(postJson({ items }, headers)));
    await t.app.db
      .update(schema.batches)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(schema.batches.id, old.batch_id));
    const res = await t.api.createBatch(postJson({ items }, headers));
    expect(res.status).toBe(202);
    expect((await batchOf(res)).batch_id).not.toBe(old.batch_id);
    expect(await batchesOf(partner.id)).toBe(2);
  });

  it.each([
    ["too long", "k".repeat(201)],
    ["empty", ""],
    ["not visible ASCII", "clé"],
  ])("a key that is %s is a 422 on the header", async (_, value) => {
    const res = await t.api.createBatch(postJson({ items }, { "X-API-Key": key, "Idempotency-Key": value }));
    expect(res.status).toBe(422);
    expect((await problemOf(res)).errors).toEqual([{ header: "Idempotency-Key", detail: expect.any(String) }]);
  });
});
