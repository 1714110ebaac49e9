// PATCH /webhook-endpoints/{id} → 401: no key, or one that is not valid; the endpoint stays as it was.
import { expect, it } from "vitest";
import { generateApiKey } from "@/lib/api-keys";
import { get, patch, post, problemOf, useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

it.each([
  ["without a key", {}],
  ["with a key that does not exist", { "X-API-Key": generateApiKey("test") }],
  ["with an empty key", { "X-API-Key": " " }],
])("PATCH /webhook-endpoints/{id} %s → 401 missing_api_key", async (_, headers: Record<string, string>) => {
  const endpoint = await (
    await t.api.createWebhookEndpoint(
      post("/webhook-endpoints", { url: "https://hooks.example.com/401" }, { "X-API-Key": key }),
    )
  ).json();
  const res = await t.api.updateWebhookEndpoint(
    patch(`/webhook-endpoints/${endpoint.id}`, { url: "https://hooks.example.com/taken" }, headers),
  );
  expect(res.status).toBe(401);
  expect(await problemOf(res)).toMatchObject({ status: 401, code: "missing_api_key" });
  // Nothing was counted: an unauthenticated request has no partner to count against.
  expect(res.headers.get("ratelimit")).toBeNull();
  const listed = await (await t.api.listWebhookEndpoints(get("/webhook-endpoints", { "X-API-Key": key }))).json();
  expect(listed.data.find((e: { id: string }) => e.id === endpoint.id).url).toBe("https://hooks.example.com/401");
});
