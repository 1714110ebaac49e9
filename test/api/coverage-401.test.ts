// GET /coverage → 401: it is read with an API key like every partner operation.
import { afterAll, beforeAll, expect, it } from "vitest";
import { generateApiKey } from "@/lib/api-keys";
import { createTestApp, get, problemOf, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

it.each([
  ["without a key", {}],
  ["with a key that does not exist", { "X-API-Key": generateApiKey("live") }],
])("GET /coverage %s → 401 missing_api_key", async (_, headers: Record<string, string>) => {
  const res = await t.api.getCoverage(get("/coverage", headers));
  expect(res.status).toBe(401);
  expect(await problemOf(res)).toMatchObject({ status: 401, code: "missing_api_key" });
});
