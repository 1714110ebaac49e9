// PATCH /webhook-endpoints/{id} → 404 not_found: an id that names no endpoint of this key's partner
// and mode (another partner's, the other mode's, a deleted one, not an id); nothing changes.
import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { BASE, get, newPartnerKey, patch, post, problemOf, useTestApp, type TestApp, grantLive } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

const update = (id: string, k: string, body: unknown = { url: "https://hooks.example.com/changed" }) =>
  t.api.updateWebhookEndpoint(patch(`/webhook-endpoints/${id}`, body, { "X-API-Key": k }));

async function expect404(res: Response) {
  expect(res.status).toBe(404);
  expect(await problemOf(res)).toMatchObject({ status: 404, code: "not_found" });
  // A write with a valid key is counted whatever its outcome.
  expect(res.headers.get("ratelimit")).toMatch(/^"writes"/);
}

const urlsOf = async (k: string) =>
  (await (await t.api.listWebhookEndpoints(get("/webhook-endpoints", { "X-API-Key": k }))).json()).data.map(
    (e: { url: string }) => e.url,
  );

describe("PATCH /webhook-endpoints/{id} → 404 not_found", () => {
  it("another partner's endpoint, and the same partner's in the other mode, are not found and stay", async () => {
    const owner = await newPartnerKey(t.app);
    const endpoint = await (
      await t.api.createWebhookEndpoint(
        post("/webhook-endpoints", { url: "https://hooks.example.com/owned" }, { "X-API-Key": owner.key }),
      )
    ).json();
    await grantLive(t.app, owner.partner.id);
    const live = await createApiKey(t.app.db, { partnerId: owner.partner.id, mode: "live", name: "live" });
    for (const k of [key, live.key]) await expect404(await update(endpoint.id, k));
    expect(await urlsOf(owner.key)).toEqual(["https://hooks.example.com/owned"]);
  });

  it("a deleted endpoint", async () => {
    const endpoint = await (
      await t.api.createWebhookEndpoint(
        post("/webhook-endpoints", { url: "https://hooks.example.com/gone" }, { "X-API-Key": key }),
      )
    ).json();
    const deleted = await t.api.deleteWebhookEndpoint(
      new Request(`${BASE}/webhook-endpoints/${endpoint.id}`, { method: "DELETE", headers: { "X-API-Key": key } }),
    );
    expect(deleted.status).toBe(204);
    await expect404(await update(endpoint.id, key, { description: "back?" }));
  });

  it.each([
    ["an unknown id", "6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b"],
    ["not an id", "latest"],
    ["bad percent-encoding", "%E0%A4%A"],
  ])("%s", async (_, id) => {
    await expect404(await update(id, key));
  });

  it("is routed by dispatch, and the path's other methods are named in a 405's Allow", async () => {
    const id = "6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b";
    await expect404(
      await t.api.dispatch(patch(`/webhook-endpoints/${id}`, { description: "x" }, { "X-API-Key": key })),
    );
    const put = await t.api.dispatch(
      new Request(`${BASE}/webhook-endpoints/${id}`, { method: "PUT", headers: { "X-API-Key": key } }),
    );
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("PATCH, DELETE");
  });
});
