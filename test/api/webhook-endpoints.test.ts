import { describe, expect, it } from "vitest";
import { useTestApp, get, newPartnerKey, problemOf, post, BASE, type TestApp, grantLive } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { createApiKey } from "@/lib/api-keys";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

const del = (id: string, k = key) =>
  t.api.deleteWebhookEndpoint(
    new Request(`${BASE}/webhook-endpoints/${id}`, { method: "DELETE", headers: { "X-API-Key": k } }),
  );

describe("/webhook-endpoints", () => {
  it("creates (201, secret shown once), lists without secrets, deletes (204)", async () => {
    const res = await t.api.createWebhookEndpoint(
      post("/webhook-endpoints", { url: "https://hooks.example.com/finca", description: "prod" }, { "X-API-Key": key }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("ratelimit")).toMatch(/^"writes"/);
    const created = await res.json();
    expect(created).toMatchObject({
      url: "https://hooks.example.com/finca",
      description: "prod",
      enabled: true,
      disabled_reason: null,
    });
    expect(created.event_types).toEqual(["property.enriched", "batch.completed"]);
    expect(created.secret).toMatch(/^whsec_/);
    expect(res.headers.get("location")).toBe(`/api/v1/partner-api/webhook-endpoints/${created.id}`);

    const list = await (await t.api.listWebhookEndpoints(get("/webhook-endpoints", { "X-API-Key": key }))).json();
    expect(list.data.map((e: { id: string }) => e.id)).toEqual([created.id]);
    expect(JSON.stringify(list)).not.toContain("whsec_");

    expect((await del(created.id)).status).toBe(204);
    expect((await del(created.id)).status).toBe(404);
    expect(
      (await (await t.api.listWebhookEndpoints(get("/webhook-endpoints", { "X-API-Key": key }))).json()).data,
    ).toEqual([]);
  });

  it.each([
    ["a private address", "https://10.0.0.1/hook", /private/],
    ["the metadata service", "http://169.254.169.254/latest", /private/],
    ["localhost", "https://localhost:8443/x", /local/],
    ["not a URL", "hooks", /absolute/],
  ])("refuses %s with 422 on /url", async (_, url, detail) => {
    const res = await t.api.createWebhookEndpoint(post("/webhook-endpoints", { url }, { "X-API-Key": key }));
    const problem = await problemOf(res);
    expect(problem.status).toBe(422);
    expect(problem.errors).toEqual([{ pointer: "/url", detail: expect.stringMatching(detail) }]);
  });

  it("subscribes to the chosen event types; an unknown type or an empty list is a 422", async () => {
    const res = await t.api.createWebhookEndpoint(
      post(
        "/webhook-endpoints",
        { url: "https://hooks.example.com/b", event_types: ["batch.completed"] },
        { "X-API-Key": key },
      ),
    );
    expect(res.status).toBe(201);
    expect((await res.json()).event_types).toEqual(["batch.completed"]);
    const listed = await (await t.api.listWebhookEndpoints(get("/webhook-endpoints", { "X-API-Key": key }))).json();
    expect(listed.data.find((e: { url: string }) => e.url === "https://hooks.example.com/b").event_types).toEqual([
      "batch.completed",
    ]);
    for (const event_types of [["property.created"], []]) {
      const bad = await t.api.createWebhookEndpoint(
        post("/webhook-endpoints", { url: "https://hooks.example.com/c", event_types }, { "X-API-Key": key }),
      );
      expect((await problemOf(bad)).errors?.[0]?.pointer).toMatch(/^\/event_types/);
    }
  });

  it("live mode requires https", async () => {
    const { partner } = await newPartnerKey(t.app);
    await grantLive(t.app, partner.id);
    const live = await createApiKey(t.app.db, { partnerId: partner.id, mode: "live", name: "live" });
    const res = await t.api.createWebhookEndpoint(
      post("/webhook-endpoints", { url: "http://hooks.example.com/x" }, { "X-API-Key": live.key }),
    );
    expect((await problemOf(res)).errors?.[0]?.detail).toMatch(/https in live mode/);
  });

  it("another partner's endpoint is 404 and stays", async () => {
    const created = await (
      await t.api.createWebhookEndpoint(
        post("/webhook-endpoints", { url: "https://a.example.com/x" }, { "X-API-Key": key }),
      )
    ).json();
    const other = await newPartnerKey(t.app);
    expect((await del(created.id, other.key)).status).toBe(404);
    expect(
      (await (await t.api.listWebhookEndpoints(get("/webhook-endpoints", { "X-API-Key": other.key }))).json()).data,
    ).toEqual([]);
    expect((await del("not-a-uuid")).status).toBe(404);
  });

  it("unknown paths under the API answer problem+json 404", async () => {
    const res = await t.api.dispatch(new Request(`${BASE}/nothing-here`));
    expect((await problemOf(res)).code).toBe("not_found");
  });
});

describe("/webhook-endpoints fan-out cap", () => {
  it("refuses an endpoint beyond WEBHOOK_MAX_ENDPOINTS per partner and mode (422), even when created concurrently", async () => {
    const max = t.app.config.WEBHOOK_MAX_ENDPOINTS;
    const { key: own } = await newPartnerKey(t.app, "test");
    const results = await Promise.all(
      Array.from({ length: max + 5 }, (_, i) =>
        t.api.createWebhookEndpoint(
          post("/webhook-endpoints", { url: `https://hooks.example.com/${i}` }, { "X-API-Key": own }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(max);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(5);
    const problem = await problemOf(refused[0]!);
    expect(problem).toMatchObject({ status: 422, code: "validation_error" });
    expect(problem.errors![0]!.detail).toMatch(new RegExp(`At most ${max} webhook endpoints`));
    // The other mode has its own allowance.
    const { key: live } = await newPartnerKey(t.app, "live");
    expect(
      (
        await t.api.createWebhookEndpoint(
          post("/webhook-endpoints", { url: "https://hooks.example.com/live" }, { "X-API-Key": live }),
        )
      ).status,
    ).toBe(201);
  });
});
