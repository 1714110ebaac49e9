import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { checkLetters } from "@/lib/cadastral-reference";
import { schema } from "@/lib/db";
import { useTestApp, type TestApp } from "../support/app";
import { countOf } from "../support/database";
import { fakeSources } from "../support/fake-sources";
import { allItems, batchOf, postCsv, postJson, settled } from "../support/batches";

let t: TestApp;
let key: string;
const calls: string[] = [];
useTestApp({ sources: fakeSources(calls), workers: true }, (ctx) => ({ t, key } = ctx));

const ref = (n: number) => {
  const parcel = `${String(2749704 + n).padStart(7, "0")}YJ0624N`;
  return parcel + "0001" + checkLetters(parcel + "0001");
};

describe("POST /batches → 202", () => {
  it("accepts JSON items, registers each valid one once and completes", async () => {
    const items = [
      { cadastral_reference: ref(1), external_id: "loan-1" },
      { cadastral_reference: "bad" },
      { cadastral_reference: ref(2).toLowerCase() },
      { cadastral_reference: ref(1), external_id: "loan-1-again" },
    ];
    const res = await t.api.createBatch(postJson({ items, name: "Book A" }, { "X-API-Key": key }));
    expect(res.status).toBe(202);
    const batch = await batchOf(res);
    expect(res.headers.get("location")).toBe(`/api/v1/partner-api/batches/${batch.batch_id}`);
    expect(res.headers.get("ratelimit")).toMatch(/^"writes";r=99;/);
    expect(batch).toMatchObject({ name: "Book A", status: "queued", completed_at: null });
    expect(batch.counts).toMatchObject({ total: 4, invalid: 1, duplicate: 1, pending: 2 });

    const done = await settled(t, key, batch.batch_id);
    expect(done).toMatchObject({ status: "completed" });
    expect(done.counts).toMatchObject({ total: 4, invalid: 1, duplicate: 1, pending: 0, enriched: 2 });
    const listed = await allItems(t, key, batch.batch_id);
    expect(listed.map((i) => [i.line, i.status, i.external_id])).toEqual([
      [1, "enriched", "loan-1"],
      [2, "invalid", null],
      [3, "enriched", null],
      [4, "duplicate", "loan-1-again"],
    ]);
    expect(listed[1]!.error).toMatchObject({ code: "invalid_cadastral_reference" });
    expect(listed[3]!.property_id).toBe(listed[0]!.property_id);
    expect(calls.filter((c) => c === `cadastre:${ref(1)}`)).toHaveLength(1);
    const events = await countOf(
      t.app.db,
      sql`select 1 from ${schema.events} where ${schema.events.type} = 'batch.completed'`,
    );
    expect(events).toBe(1);
  });

  it("accepts a CSV body named by ?name=", async () => {
    const csv = `cadastral_reference,external_id\r\n${ref(10)},a\r\n${ref(11)},b\r\n`;
    const res = await t.api.createBatch(postCsv(csv, { "X-API-Key": key }, "?name=From%20CSV"));
    expect(res.status).toBe(202);
    const batch = await batchOf(res);
    expect(batch).toMatchObject({ name: "From CSV", counts: { total: 2, pending: 2 } });
    expect((await settled(t, key, batch.batch_id)).counts.enriched).toBe(2);
  });
});
