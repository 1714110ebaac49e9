// PATCH /webhook-endpoints/{id} → 422 validation_error: the body as a create checks it (the same
// member schemas, the same URL rules), at least one member, no unknown ones; nothing changes.
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { BASE, get, newPartnerKey, patch, post, problemOf, useTestApp, type TestApp, grantLive } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let key: string;
let id: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

const ORIGINAL = { url: "https://hooks.example.com/original", description: "original" };
beforeAll(async () => {
  id = (await (await t.api.createWebhookEndpoint(post("/webhook-endpoints", ORIGINAL, { "X-API-Key": key }))).json())
    .id;
});

async function expect422(req: Request, errors: { pointer: string; detail?: RegExp | string }[]) {
  const res = await t.api.updateWebhookEndpoint(req);
  expect(res.status).toBe(422);
  const problem = await problemOf(res);
  expect(problem).toMatchObject({ status: 422, code: "validation_error", title: "Validation error" });
  expect(problem.errors?.map((e) => e.pointer)).toEqual(errors.map((e) => e.pointer));
  for (const [i, e] of errors.entries()) if (e.detail) expect(problem.errors![i]!.detail).toMatch(e.detail);
  // Counted as a write whatever its outcome, like every authenticated write.
  expect(res.headers.get("ratelimit")).toMatch(/^"writes";r=\d+;t=\d+$/);
  const listed = await (await t.api.listWebhookEndpoints(get("/webhook-endpoints", { "X-API-Key": key }))).json();
  expect(listed.data.find((e: { id: string }) => e.id === id)).toMatchObject(ORIGINAL);
}

const update = (body: unknown, headers: Record<string, string> = {}) =>
  patch(`/webhook-endpoints/${id}`, body, { "X-API-Key": key, ...headers });

describe("PATCH /webhook-endpoints/{id} → 422 validation_error", () => {
  it("an empty object: at least one member", async () => {
    await expect422(update({}), [{ pointer: "", detail: /at least one of url, description, event_types, enabled/ }]);
  });
  it("an unknown member, alone or beside a known one", async () => {
    await expect422(update({ secret: "whsec_x" }), [{ pointer: "/secret", detail: "unknown field" }]);
    await expect422(update({ description: "x", secret: "whsec_x" }), [{ pointer: "/secret", detail: "unknown field" }]);
    await expect422(update({ enabled: "no" }), [{ pointer: "/enabled" }]);
  });
  it.each([
    ["a private address", "https://10.0.0.1/hook", /private/],
    ["the metadata service", "http://169.254.169.254/latest", /private/],
    ["localhost", "https://localhost:8443/x", /local/],
    ["not a URL", "hooks", /absolute/],
  ])("a URL create refuses: %s", async (_, url, detail) => {
    await expect422(update({ url, description: "changed" }), [{ pointer: "/url", detail }]);
  });
  it("a URL over the length cap, or not a string", async () => {
    await expect422(update({ url: `https://hooks.example.com/${"a".repeat(2100)}` }), [{ pointer: "/url" }]);
    await expect422(update({ url: null }), [{ pointer: "/url" }]);
    await expect422(update({ url: 42 }), [{ pointer: "/url", detail: /string/ }]);
  });
  it("a description too long or with a NUL", async () => {
    await expect422(update({ description: "d".repeat(501) }), [{ pointer: "/description" }]);
    await expect422(update({ description: "a\u0000b" }), [{ pointer: "/description", detail: /NUL/ }]);
  });
  it("an unknown event type, or an empty list", async () => {
    await expect422(update({ event_types: ["property.created"] }), [{ pointer: "/event_types/0" }]);
    await expect422(update({ event_types: [] }), [{ pointer: "/event_types" }]);
  });
  it("a body that is not a JSON object, or not JSON", async () => {
    await expect422(update([]), [{ pointer: "", detail: /object/ }]);
    await expect422(update("{url:"), [{ pointer: "", detail: /not valid JSON/ }]);
    await expect422(update({ description: "x" }, { "Content-Type": "text/plain" }), [
      { pointer: "", detail: /Content-Type/ },
    ]);
  });
  it("live mode requires https", async () => {
    const { partner } = await newPartnerKey(t.app);
    await grantLive(t.app, partner.id);
    const live = await createApiKey(t.app.db, { partnerId: partner.id, mode: "live", name: "live" });
    const endpoint = await (
      await t.api.createWebhookEndpoint(
        post("/webhook-endpoints", { url: "https://hooks.example.com/live" }, { "X-API-Key": live.key }),
      )
    ).json();
    const res = await t.api.updateWebhookEndpoint(
      new Request(`${BASE}/webhook-endpoints/${endpoint.id}`, {
        method: "PATCH",
        headers: { "X-API-Key": live.key, "Content-Type": "application/json" },
        body: JSON.stringify({ url: "http://hooks.example.com/live" }),
      }),
    );
    expect(res.status).toBe(422);
    expect((await problemOf(res)).errors).toEqual([
      { pointer: "/url", detail: expect.stringMatching(/https in live mode/) },
    ]);
  });
});
