// Two partners' portfolios progress side by side: a later, smaller batch of another partner is not
// queued behind the whole of a large one (each batch keeps only BATCH_WINDOW items enriching).
import { expect, it } from "vitest";
import { checkLetters } from "@/lib/cadastral-reference";
import type { Sources } from "@/lib/enrichment/sources/types";
import { newPartnerKey, useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { batchOf, getBatch, postJson, settled } from "../support/batches";

// Registers that take a moment, so that the large batch is still running when the small one ends.
const slow = (sources: Sources): Sources => ({
  cadastre: { lookup: async (input) => (await new Promise((r) => setTimeout(r, 20)), sources.cadastre.lookup(input)) },
  energyCertificate: sources.energyCertificate,
  ite: sources.ite,
});
const fake = fakeSources();

let t: TestApp;
useTestApp(
  { sources: { test: slow(fake.test), live: fake.live }, workers: true, env: { BATCH_WINDOW: "5" } },
  (ctx) => ({ t } = ctx),
);

const items = (from: number, count: number) =>
  Array.from({ length: count }, (_, n) => {
    const parcel = `${String(7100000 + from + n).padStart(7, "0")}YJ0624N`;
    return { cadastral_reference: parcel + "0001" + checkLetters(parcel + "0001") };
  });

it("a small batch submitted after a large one of another partner completes while the large one still runs", async () => {
  const large = await newPartnerKey(t.app);
  const small = await newPartnerKey(t.app);
  const a = await batchOf(await t.api.createBatch(postJson({ items: items(0, 60) }, { "X-API-Key": large.key })));
  const b = await batchOf(await t.api.createBatch(postJson({ items: items(1000, 10) }, { "X-API-Key": small.key })));
  const done = await settled(t, small.key, b.batch_id);
  expect(done.counts).toMatchObject({ enriched: 10, pending: 0 });
  const other = await getBatch(t, large.key, a.batch_id);
  expect(other.status).toBe("running");
  expect(other.counts.pending).toBeGreaterThan(0);
  expect((await settled(t, large.key, a.batch_id)).counts.enriched).toBe(60);
});
