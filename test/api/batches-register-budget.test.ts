// Register budgets hold across worker processes: a live portfolio worked by two worker processes
// never sends Catastro more than REGISTER_RATE_LIMITS allows, as Catastro (a replay of it that
// logs each request's arrival) sees it. PostgreSQL only: worker processes share a database server.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { checkLetters } from "@/lib/cadastral-reference";
import { startReplayServer, type ReplayServer } from "@/lib/enrichment/sources/testing/replay-server";
import { createTestApp, newPartnerKey, type TestApp } from "../support/app";
import { startNode, stopAll } from "../support/processes";
import { batchOf, postJson, settled } from "../support/batches";

const RATE = 5;
const fixture = (name: string) =>
  readFileSync(path.join(__dirname, "../../lib/enrichment/sources/cadastre/fixtures", name), "utf8");

let t: TestApp;
let catastro: ReplayServer;
beforeAll(async () => {
  catastro = await startReplayServer();
  // Catastro's recorded answers (Madrid, where no live certificate or inspection register is asked).
  catastro.on(/\/json\/Consulta_DNPRC\?/, { body: fixture("json-ovc-dnprc-urbana-9398516VK3799G.json") });
  catastro.on(/\/json\/Consulta_CPMRC\?/, { body: fixture("json-cpmrc-6344205CF7664S.json") });
  t = await createTestApp({});
});
afterEach(stopAll);
afterAll(async () => {
  await t?.close();
  await catastro?.close();
});

it("two worker processes together keep to the register's budget", async () => {
  const { key } = await newPartnerKey(t.app, "live");
  const references = Array.from({ length: 30 }, (_, n) => {
    const parcel = `${String(6100000 + n).padStart(7, "0")}VK3799G`;
    return parcel + "0001" + checkLetters(parcel + "0001");
  });
  const batch = await batchOf(
    await t.api.createBatch(
      postJson({ items: references.map((r) => ({ cadastral_reference: r })) }, { "X-API-Key": key }),
    ),
  );
  const env = {
    DATABASE_URL: t.testDb.url,
    CATASTRO_BASE_URL: catastro.url,
    REGISTER_RATE_LIMITS: `catastro=${RATE}`,
    JOB_POLL_SECONDS: "0.5",
    LOG_LEVEL: "warn",
  };
  for (let i = 0; i < 2; i++) startNode("scripts/worker.ts", [], { env });
  const done = await settled(t, key, batch.batch_id);
  expect(done.counts.pending).toBe(0);
  // Every unit's facts and its parcel's point: two requests per reference.
  expect(catastro.arrivals).toHaveLength(2 * references.length);
  // Grants are paced more than 1 / RATE s apart on the database's clock, so the last of n requests is
  // granted more than (n - 1) / RATE s after the first. What Catastro sees is that spread less the
  // first request's way from its grant to the register, which a busy machine can stretch: a 3 s
  // allowance for it (lib/registers/budgets.test.ts counts sends per second exactly). At ten times
  // the rate the spread was 4.6 s on a busy machine (the test fails), without any budget shorter still.
  const arrivals = [...catastro.arrivals].sort((a, b) => a - b);
  const spreadMs = arrivals.at(-1)! - arrivals[0]!;
  expect(spreadMs).toBeGreaterThanOrEqual((arrivals.length / RATE - 1) * 1000 - 3000);
});
