import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp, type App } from "@/lib/app";
import { loadConfig } from "@/lib/config";
import { openDatabase } from "@/lib/db";
import { createPartnerApi } from "@/lib/partner-api";
import { createTestApp, newPartnerKey, post, type TestApp } from "../support/app";
import { onPostgres } from "../support/database";
import { fakeSources } from "../support/fake-sources";
import { checkLetters } from "@/lib/cadastral-reference";

// 150 simultaneous writes of one partner: exactly 100 accepted, 50 answered 429, nothing else.
// On PostgreSQL they go through two independent app instances (own pools, own queues).
let t: TestApp;
let second: App | undefined;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
  if (onPostgres) {
    const env = { ENRICHMENT_DEADLINE_MS: "1500" };
    second = await createApp({ config: loadConfig(env), database: await openDatabase({ url: t.testDb.url, poolSize: 10 }), sources: fakeSources(), workers: false, env });
  }
});
afterAll(async () => {
  await second?.close();
  await t.close();
});

const unit = (n: number) => {
  const first18 = "9398516VK3799G" + String(n).padStart(4, "0");
  return first18 + checkLetters(first18);
};

it("is exact under concurrency" + (onPostgres ? " across two app instances" : ""), async () => {
  const { key } = await newPartnerKey(t.app);
  const apis = [t.api, ...(second ? [createPartnerApi(second)] : [])];
  const results = await Promise.all(
    Array.from({ length: 150 }, (_, i) =>
      apis[i % apis.length]!.createProperty(post("/properties", { cadastral_reference: unit(i + 1) }, { "X-API-Key": key })),
    ),
  );
  const counts = results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
  expect(counts).toEqual({ 201: 100, 429: 50 });
});
