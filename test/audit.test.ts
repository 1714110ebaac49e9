// The security history: append-only, written in the change's transaction (a failing change leaves
// no row, a committed one always has its row), one log line per committed row, never a key or a
// secret, a partner's page at a time, pruned after its retention.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { schema } from "@/lib/db";
import { audited, auditPage, keyActor, pruneAudit, recordAudit, userActor, type Actor } from "@/lib/audit";
import { createLogger } from "@/lib/observability/logger";
import { createTestApp, newPartnerKey, patch, post, type TestApp } from "./support/app";
import { BASE } from "./support/app";
import { fakeSources } from "./support/fake-sources";

const lines: Record<string, unknown>[] = [];
const raw: string[] = [];
let t: TestApp;
beforeAll(async () => {
  const logger = createLogger({
    level: "info",
    format: "json",
    destination: { write: (s: string) => void (raw.push(s), lines.push(JSON.parse(s))) },
  });
  t = await createTestApp({ sources: fakeSources(), logger });
});
afterAll(() => t.close());

const { auditEvents } = schema;
const someone: Actor = { userId: null, label: "owner@example.test", address: "203.0.113.7" };
const rowsOf = (partnerId: string) =>
  t.app.db.select().from(auditEvents).where(eq(auditEvents.partnerId, partnerId)).orderBy(auditEvents.at);
const auditLines = () => lines.filter((l) => l.msg === "audit");

describe("a change and its row", () => {
  it("commit together: a failing change leaves no row and no log line; a committed one has both", async () => {
    const { partner } = await newPartnerKey(t.app);
    const before = auditLines().length;
    const failing = audited(t.app, someone, async (tx) => {
      await recordAudit(tx, someone, { partnerId: partner.id, action: "api_key.created", target: "inside" });
      throw new Error("the change failed");
    });
    await expect(failing).rejects.toThrow("the change failed");
    expect(await rowsOf(partner.id)).toEqual([]);
    expect(auditLines()).toHaveLength(before);

    const made = await audited(t.app, someone, async () => ({
      result: 42,
      entry: { partnerId: partner.id, action: "api_key.revoked", target: "Production (finca_test_ab12…)" },
    }));
    expect(made).toBe(42);
    expect(await rowsOf(partner.id)).toEqual([
      expect.objectContaining({
        action: "api_key.revoked",
        actor: "owner@example.test",
        address: "203.0.113.7",
        target: "Production (finca_test_ab12…)",
      }),
    ]);
    expect(auditLines().at(-1)).toMatchObject({ audit: { action: "api_key.revoked", partnerId: partner.id } });
    // A change that did nothing records nothing.
    await audited(t.app, someone, async () => ({ result: null, entry: null }));
    expect(await rowsOf(partner.id)).toHaveLength(1);
  });

  it("are never changed afterwards: the table refuses an update", async () => {
    const { partner } = await newPartnerKey(t.app);
    const row = await recordAudit(t.app.db, someone, { partnerId: partner.id, action: "sign_out" });
    await expect(
      t.app.db.update(auditEvents).set({ actor: "someone else" }).where(eq(auditEvents.id, row.id)),
    ).rejects.toThrow();
    expect((await rowsOf(partner.id))[0]!.actor).toBe("owner@example.test");
  });
});

describe("endpoint writes through the API", () => {
  it("are recorded by the key that made them, with no key or secret anywhere in the row or its line", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key, "Idempotency-Key": "audit-1" };
    const body = { url: "https://hooks.example.com/audit/T0001/B0002/s3cr3t" };
    const created = await t.api.createWebhookEndpoint(post("/webhook-endpoints", body, headers));
    const { id, secret } = (await created.json()) as { id: string; secret: string };
    // A repeat with its Idempotency-Key creates nothing, and records nothing.
    expect((await t.api.createWebhookEndpoint(post("/webhook-endpoints", body, headers))).status).toBe(201);
    await t.api.updateWebhookEndpoint(patch(`/webhook-endpoints/${id}`, { enabled: false }, { "X-API-Key": key }));
    await t.api.updateWebhookEndpoint(patch(`/webhook-endpoints/${id}`, { description: "x" }, { "X-API-Key": key }));
    const gone = new Request(`${BASE}/webhook-endpoints/${id}`, { method: "DELETE", headers: { "X-API-Key": key } });
    expect((await t.api.deleteWebhookEndpoint(gone)).status).toBe(204);

    const rows = await rowsOf(partner.id);
    // Named by host and id: a hook's path or query may hold the receiver's own secret.
    const named = `hooks.example.com (${id})`;
    // As a set: the order of rows of one instant is not the question here.
    const recorded = rows.map((r) => [r.action, r.target, r.detail]);
    const expected = [
      ["webhook_endpoint.created", named, { mode: "test" }],
      ["webhook_endpoint.disabled", named, { mode: "test", members: "enabled" }],
      ["webhook_endpoint.updated", named, { mode: "test", members: "description" }],
      ["webhook_endpoint.deleted", named, { mode: "test" }],
    ];
    expect(recorded).toHaveLength(expected.length);
    expect(recorded).toEqual(expect.arrayContaining(expected));
    // The key's visible start, as the portal shows it: never more of it.
    const [{ visibleStart }] = (await t.app.db
      .select({ visibleStart: schema.apiKeys.visibleStart })
      .from(schema.apiKeys)
      .where(eq(schema.apiKeys.partnerId, partner.id))) as [{ visibleStart: string }];
    expect(new Set(rows.map((r) => r.actor))).toEqual(new Set([`API key ${visibleStart}…`]));
    const written = JSON.stringify(rows) + raw.filter((l) => l.includes('"msg":"audit"')).join("");
    expect(written).not.toContain(key);
    expect(written).not.toContain(secret);
    expect(written).not.toContain("whsec_");
    expect(written).not.toContain(body.url);
  });

  it("name a key by its visible start only", () => {
    expect(keyActor("finca_test_ab12")).toEqual({ userId: null, label: "API key finca_test_ab12…", address: null });
    expect(userActor({ id: "u", email: "a@b.test", role: "viewer" }, null)).toEqual({
      userId: "u",
      label: "a@b.test",
      address: null,
      role: "viewer",
    });
  });
});

describe("the history", () => {
  it("is read a partner at a time, by area or action, newest first, a page at a time", async () => {
    const { partner } = await newPartnerKey(t.app);
    const other = await newPartnerKey(t.app);
    // Rows a second apart: read newest first.
    const actions = ["api_key.created", "api_key.rolled", "sign_in.succeeded", "api_key.revoked"] as const;
    await t.app.db.insert(auditEvents).values(
      actions.map((action, i) => ({
        partnerId: partner.id,
        actor: someone.label,
        action,
        at: sql`now() - make_interval(secs => ${actions.length - i})`,
      })),
    );
    await recordAudit(t.app.db, someone, { partnerId: other.partner.id, action: "api_key.created" });
    const all = await auditPage(t.app.db, { partnerId: partner.id });
    expect(all.data.map((r) => r.action)).toEqual([
      "api_key.revoked",
      "sign_in.succeeded",
      "api_key.rolled",
      "api_key.created",
    ]);
    expect(all.data[0]!.partnerName).toBe(partner.name);
    const keys = await auditPage(t.app.db, { partnerId: partner.id, action: "api_key", limit: 2 });
    expect(keys.data.map((r) => r.action)).toEqual(["api_key.revoked", "api_key.rolled"]);
    const older = await auditPage(t.app.db, { partnerId: partner.id, action: "api_key", limit: 2, before: keys.next! });
    expect([older.data.map((r) => r.action), older.next]).toEqual([["api_key.created"], null]);
    const one = await auditPage(t.app.db, { partnerId: partner.id, action: "sign_in.succeeded" });
    expect(one.data).toHaveLength(1);
  });

  it("reads rows of one instant in the order they were written, and pages through them", async () => {
    const { partner } = await newPartnerKey(t.app);
    const actions = ["api_key.created", "api_key.rolled", "sign_in.succeeded", "api_key.revoked", "sign_out"] as const;
    const instant = sql`'2026-11-28T04:00:00.123456Z'::timestamptz`;
    for (const action of actions)
      await t.app.db.insert(auditEvents).values({ partnerId: partner.id, actor: someone.label, action, at: instant });
    const first = await auditPage(t.app.db, { partnerId: partner.id, limit: 3 });
    const rest = await auditPage(t.app.db, { partnerId: partner.id, limit: 3, before: first.next! });
    expect([...first.data, ...rest.data].map((r) => r.action)).toEqual([...actions].reverse());
    expect(rest.next).toBeNull();
  });

  it("keeps rows for AUDIT_RETENTION_DAYS", async () => {
    const { partner } = await newPartnerKey(t.app);
    await t.app.db.insert(auditEvents).values([
      { partnerId: partner.id, actor: "x", action: "sign_out", at: sql`now() - interval '401 days'` },
      { partnerId: partner.id, actor: "x", action: "sign_out", at: sql`now() - interval '399 days'` },
    ]);
    expect(await pruneAudit(t.app.db, t.app.config.AUDIT_RETENTION_DAYS)).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(partner.id)).toHaveLength(1);
  });
});
