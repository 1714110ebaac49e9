// Results of a 100,000-item batch are streamed: the database is read a page at a time, only as fast
// as the client reads, so memory does not grow with the batch.
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { checkLetters } from "@/lib/cadastral-reference";
import { bare, schema } from "@/lib/db";
import { emptyCounts } from "@/lib/domain";
import { resultsStream } from "@/lib/batches";
import { registerReferences } from "@/lib/properties";
import { newPartnerKey, useTestApp, type TestApp } from "../support/app";
import { countingSelects } from "../support/counting-db";

let t: TestApp;
useTestApp({}, (ctx) => ({ t } = ctx));

const ITEMS = 100_000;

describe("GET /batches/{id}/results of 100,000 items", () => {
  it("reads the database only as fast as the client reads, and streams every item", async () => {
    const { partner } = await newPartnerKey(t.app);
    const scope = { partnerId: partner.id, mode: "test" as const };
    const references = Array.from({ length: 200 }, (_, n) => {
      const parcel = `${String(5100000 + n).padStart(7, "0")}YJ0624N`;
      return parcel + "0001" + checkLetters(parcel + "0001");
    });
    const registered = await t.app.db.transaction((tx) => registerReferences(tx, t.app.queue, scope, references));
    const [batch] = await t.app.db
      .insert(schema.batches)
      .values({ ...scope, counts: emptyCounts(ITEMS) })
      .returning();
    const ids = references.map((r) => registered.get(r)!.propertyId);
    const i = schema.batchItems;
    await t.app.db.execute(sql`
      insert into ${i} (${bare(i.batchId)}, ${bare(i.line)}, ${bare(i.cadastralReference)}, ${bare(i.externalId)}, ${bare(i.status)}, ${bare(i.propertyId)})
      select ${batch!.id}::uuid, n, ${references[0]}, 'loan-' || n, 'pending', (${sql.param(ids)}::uuid[])[1 + n % ${ids.length}]
      from generate_series(1, ${ITEMS}) n`);

    const { db, counter } = countingSelects(t.app.db);
    const reader = resultsStream(db, scope, batch!.id, "csv").getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    // Whatever the stream buffers ahead of the client: a page or two, never the batch.
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    const selectsPerPage = 3; // the items, their properties, the properties' sources
    expect(counter.selects).toBeLessThanOrEqual(3 * selectsPerPage);

    let lines = 0;
    let last = "";
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      text += decoder.decode(next.value, { stream: true });
      const cut = text.lastIndexOf("\r\n");
      lines += text.slice(0, cut).split("\r\n").length;
      last = text.slice(0, cut).split("\r\n").at(-1)!;
      text = text.slice(cut + 2);
    }
    expect(text).toBe("");
    expect(lines).toBe(ITEMS + 1); // the header too
    expect(last).toMatch(new RegExp(`^${ITEMS},loan-${ITEMS},`));
    expect(counter.selects).toBe((ITEMS / 500) * selectsPerPage + 1);
  });
});
