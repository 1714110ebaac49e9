// PATCH /webhook-endpoints/{id} → 200: the members sent change, the others stay, the secret stays
// (and is not shown); the update counts as a write.
import { describe, expect, it } from "vitest";
import { authenticateApiKey, createApiKey } from "@/lib/api-keys";
import { getEndpoint } from "@/lib/webhooks/endpoints";
import { createTestApp, get, newPartnerKey, patch, post, useTestApp, type TestApp, grantLive } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

async function created(api: TestApp["api"], k: string, body: Record<string, unknown>) {
  const res = await api.createWebhookEndpoint(post("/webhook-endpoints", body, { "X-API-Key": k }));
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; secret: string; created_at: string };
}

describe("PATCH /webhook-endpoints/{id} → 200", () => {
  it("changes the URL and the description, and answers the endpoint without its secret", async () => {
    const endpoint = await created(t.api, key, { url: "https://hooks.example.com/old", description: "old" });
    const res = await t.api.updateWebhookEndpoint(
      patch(
        `/webhook-endpoints/${endpoint.id}`,
        { url: " https://hooks.example.com/new ", description: " new " },
        { "X-API-Key": key },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit")).toMatch(/^"writes";r=\d+;t=\d+$/);
    const body = await res.json();
    expect(body).toEqual({
      id: endpoint.id,
      url: "https://hooks.example.com/new",
      description: "new",
      event_types: ["property.enriched", "batch.completed"],
      enabled: true,
      disabled_reason: null,
      created_at: endpoint.created_at,
    });
    const listed = await (await t.api.listWebhookEndpoints(get("/webhook-endpoints", { "X-API-Key": key }))).json();
    expect(listed.data.find((e: { id: string }) => e.id === endpoint.id)).toEqual(body);
    const principal = await authenticateApiKey(t.app.db, key);
    const row = await getEndpoint(t.app.db, principal!, endpoint.id);
    expect(row?.secret).toBe(endpoint.secret);
  });

  it("leaves the members not sent as they were", async () => {
    const endpoint = await created(t.api, key, {
      url: "https://hooks.example.com/keep",
      description: "kept",
      event_types: ["batch.completed"],
    });
    const described = await t.api.updateWebhookEndpoint(
      patch(`/webhook-endpoints/${endpoint.id}`, { description: "changed" }, { "X-API-Key": key }),
    );
    expect(await described.json()).toMatchObject({
      url: "https://hooks.example.com/keep",
      description: "changed",
      event_types: ["batch.completed"],
    });
    const moved = await t.api.updateWebhookEndpoint(
      patch(`/webhook-endpoints/${endpoint.id}`, { url: "https://hooks.example.com/moved" }, { "X-API-Key": key }),
    );
    expect(await moved.json()).toMatchObject({
      url: "https://hooks.example.com/moved",
      description: "changed",
      event_types: ["batch.completed"],
    });
  });

  it("replaces the event types; null sends every type again; a null or empty description removes it", async () => {
    const endpoint = await created(t.api, key, { url: "https://hooks.example.com/types", description: "d" });
    const update = async (body: Record<string, unknown>) => {
      const res = await t.api.updateWebhookEndpoint(
        patch(`/webhook-endpoints/${endpoint.id}`, body, { "X-API-Key": key }),
      );
      expect(res.status).toBe(200);
      return res.json();
    };
    expect(
      (await update({ event_types: ["property.enriched", "property.enriched"], description: null })) as object,
    ).toMatchObject({ event_types: ["property.enriched"], description: null });
    expect(await update({ event_types: null, description: "back" })).toMatchObject({
      event_types: ["property.enriched", "batch.completed"],
      description: "back",
    });
    expect(await update({ description: "  " })).toMatchObject({ description: null });
  });

  it("disables the endpoint as the partner's choice, and enables it again with its failures forgotten", async () => {
    const endpoint = await created(t.api, key, { url: "https://hooks.example.com/switch" });
    const update = async (enabled: boolean) => {
      const res = await t.api.updateWebhookEndpoint(
        patch(`/webhook-endpoints/${endpoint.id}`, { enabled }, { "X-API-Key": key }),
      );
      expect(res.status).toBe(200);
      return res.json();
    };
    expect(await update(false)).toMatchObject({ enabled: false, disabled_reason: "disabled_by_partner" });
    expect(await update(true)).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it("a live endpoint takes an https URL", async () => {
    const { partner } = await newPartnerKey(t.app);
    await grantLive(t.app, partner.id);
    const live = await createApiKey(t.app.db, { partnerId: partner.id, mode: "live", name: "live" });
    const endpoint = await created(t.api, live.key, { url: "https://hooks.example.com/live" });
    const res = await t.api.updateWebhookEndpoint(
      patch(`/webhook-endpoints/${endpoint.id}`, { url: "https://hooks.example.com/live2" }, { "X-API-Key": live.key }),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).url).toBe("https://hooks.example.com/live2");
  });
});

describe("PATCH /webhook-endpoints/{id} with FINCA_WEBHOOKS_ALLOW_PRIVATE=1", () => {
  it("takes a private address, as a create does", async () => {
    const own = await createTestApp({ sources: fakeSources(), env: { FINCA_WEBHOOKS_ALLOW_PRIVATE: "1" } });
    try {
      const { key: k } = await newPartnerKey(own.app);
      const endpoint = await created(own.api, k, { url: "https://hooks.example.com/x" });
      const res = await own.api.updateWebhookEndpoint(
        patch(`/webhook-endpoints/${endpoint.id}`, { url: "http://127.0.0.1:9/hook" }, { "X-API-Key": k }),
      );
      expect(res.status).toBe(200);
      expect((await res.json()).url).toBe("http://127.0.0.1:9/hook");
    } finally {
      await own.close();
    }
  });
});
