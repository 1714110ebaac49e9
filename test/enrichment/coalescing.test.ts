import { afterAll, beforeAll, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createApiKey } from "@/lib/api-keys";
import { createPartner } from "@/lib/partners";
import { startReplayServer, type ReplayServer } from "@/lib/enrichment/sources/testing/replay-server";
import { createTestApp, post, type TestApp, grantLive } from "../support/app";

// Live mode against a replay of Catastro: creates of one reference by different partners share
// one register request (coalesced while in flight, then cached).
let t: TestApp;
let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
  const recorded = readFileSync(
    path.join(process.cwd(), "lib/enrichment/sources/cadastre/fixtures/json-ovc-dnprc-urbana-9398516VK3799G.json"),
    "utf8",
  );
  server.on(/Consulta_DNPRC/, { body: recorded, delayMs: 200 });
  t = await createTestApp({
    env: { CATASTRO_BASE_URL: server.url, CEE_CATALONIA_BASE_URL: server.url, CEE_VALENCIA_BASE_URL: server.url },
  });
});
afterAll(async () => {
  await t.close();
  await server.close();
});

it("N concurrent creates of one reference by different partners → one Catastro request", async () => {
  const keys = await Promise.all(
    Array.from({ length: 6 }, async (_, i) => {
      const partner = await createPartner(t.app.db, `Coalescing ${i}`);
      await grantLive(t.app, partner.id);
      return (await createApiKey(t.app.db, { partnerId: partner.id, mode: "live", name: "k" })).key;
    }),
  );
  const responses = await Promise.all(
    keys.map((key) =>
      t.api.createProperty(post("/properties", { cadastral_reference: "9398516VK3799G" }, { "X-API-Key": key })),
    ),
  );
  for (const res of responses) {
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ municipality: "Madrid", ccaa: "Comunidad de Madrid", climate_zone: "D3" });
  }
  // A later partner: answered from the cache.
  const late = await createPartner(t.app.db, "Coalescing late");
  await grantLive(t.app, late.id);
  const { key } = await createApiKey(t.app.db, { partnerId: late.id, mode: "live", name: "k" });
  expect(
    (await t.api.createProperty(post("/properties", { cadastral_reference: "9398516 VK3799G" }, { "X-API-Key": key })))
      .status,
  ).toBe(201);
  expect(server.requests.filter((u) => u.pathname.endsWith("/Consulta_DNPRC"))).toHaveLength(1);
});
