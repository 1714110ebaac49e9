// A live portfolio whose references the cadastre index holds (#41) is answered with no Catastro
// request: a stand-in Catastro (the replay server, which logs every request) receives none while the
// in-process workers run the portfolio over the constructed 28900 samples; its items name the copy
// that answered. bench/cadastre-portfolio.ts measures the same at 100,000 items.
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { localFile } from "@/lib/registers";
import { importCat } from "@/lib/registers/catastro-cat/import";
import { importInspire } from "@/lib/registers/catastro-inspire/import";
import { startReplayServer, type ReplayServer } from "@/lib/enrichment/sources/testing/replay-server";
import { createTestApp, get, newPartnerKey, type TestApp } from "../support/app";
import { allItems, batchOf, postJson, settled } from "../support/batches";

const DIR = path.join(process.cwd(), "lib/registers");
const REFERENCES = ["0847106VK4704F0001OE", "0847106VK4704F0002PR", "0847106VK4704F0003AT", "0847106VK4704F"];

let catastro: ReplayServer;
let t: TestApp;
beforeAll(async () => {
  // No route: any request it received would be answered 404, and is logged either way.
  catastro = await startReplayServer();
  t = await createTestApp({ workers: true, env: { CATASTRO_BASE_URL: catastro.url } });
  const inspire = ["cadastralparcel", "building", "buildingpart", "address"].map((kind) =>
    localFile(path.join(DIR, `catastro-inspire/fixtures/28900.${kind}.gml`)),
  );
  await importInspire(t.app.db, "28900", inspire);
  await importCat(t.app.db, "28900", [localFile(path.join(DIR, "catastro-cat/fixtures/28900-sample.CAT"))]);
});
afterAll(async () => {
  await t?.close();
  await catastro?.close();
});

it("a live portfolio over imported references sends Catastro no request", async () => {
  const { key } = await newPartnerKey(t.app, "live");
  const batch = await batchOf(
    await t.api.createBatch(
      postJson({ items: REFERENCES.map((r) => ({ cadastral_reference: r })) }, { "X-API-Key": key }),
    ),
  );
  const done = await settled(t, key, batch.batch_id);
  expect(done.counts.pending).toBe(0);
  expect(done.counts.not_found).toBe(0);
  expect(catastro.requests).toEqual([]);
  const providers = await Promise.all(
    (await allItems(t, key, batch.batch_id)).map(async (item) => {
      const res = await t.api.getProperty(get(`/properties/${item.property_id}`, { "X-API-Key": key }));
      return ((await res.json()) as { enrichment: { cadastre: { provider: string } } }).enrichment.cadastre.provider;
    }),
  );
  expect(providers).toEqual([
    "index:catastro-cat",
    "index:catastro-cat",
    "index:catastro-cat",
    "index:catastro-inspire",
  ]);
});
