// The portal offers no live mode without live access, and a hand-set live cookie gets the test view or a
// refusal, never a live write: every exported portal action (so one added later too) is called in live
// mode by an owner of an organisation whose live access was taken away, and each is refused; the live
// registers' stand-in receives no request and nothing of the organisation's live data changes.
// Next.js's request context (cookies, headers, the session, navigation) is stood in for; the App and its
// database are real.
import { readdir } from "node:fs/promises";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { PORTAL_ACTIONS, type PortalAction } from "@/lib/domain";
import { decideLiveAccess, NO_LIVE_ACCESS } from "@/lib/partners/live";
import { startSession } from "@/lib/auth/sessions";
import { createApiKey } from "@/lib/api-keys";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { createTestApp, adoptApp, type TestApp } from "./support/app";
import { fakeSources } from "./support/fake-sources";
import { organisation } from "./support/team";

const request = vi.hoisted(() => ({
  cookies: new Map<string, string>(),
  session: null as null | { user: { id: string; sessionVersion: number; sessionId: string } },
}));
class Navigation extends Error {}
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (request.cookies.has(name) ? { name, value: request.cookies.get(name) } : undefined),
    set: (name: string, value: string) => request.cookies.set(name, value),
  }),
  headers: async () => new Headers({ host: "finca.test", "user-agent": "vitest" }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("next/navigation", () => ({
  redirect: (to: string) => {
    throw new Navigation(`redirect ${to}`);
  },
  forbidden: () => {
    throw new Navigation("forbidden");
  },
}));
vi.mock("@/server/auth", () => ({ auth: async () => request.session, signOut: async () => {} }));

const portal = await import("@/app/(portal)/actions");
// Every feature's actions (test/portal-roles.test.ts finds the files the same way).
const features = await Promise.all(
  (await readdir("app/(portal)", { recursive: true }))
    .filter((file) => /(^|\/)actions\.ts$/.test(file))
    .map((file) => import(/* @vite-ignore */ resolve("app/(portal)", file)) as Promise<Record<string, unknown>>),
);
const session = await import("@/server/session");

// The member's own view: not a change to the organisation (test/portal-roles.test.ts).
const ANY_MEMBER = ["switchMode"];
const REFERENCE = "2749704YJ0624N0001DI";

const liveCalls: string[] = [];
let t: TestApp;
let org: Awaited<ReturnType<typeof organisation<"admin">>>;
let endpointId: string;
beforeAll(async () => {
  t = await createTestApp({
    sources: { test: fakeSources().test, live: fakeSources(liveCalls).live },
    env: { FINCA_WEBHOOKS_ALLOW_PRIVATE: "1" },
  });
  adoptApp(t.app);
  org = await organisation(t.app, ["admin"]);
  // Live access granted, live data made, then access taken away: the owner's browser still says live.
  await decideLiveAccess(t.app.db, org.partnerId, true, { waiting: false });
  const live = { partnerId: org.partnerId, mode: "live" as const };
  await createApiKey(t.app.db, { ...live, name: "live key" });
  endpointId = (
    await createEndpoint(t.app.db, live, { url: "https://example.com/hooks" }, { allowPrivate: true, maxEndpoints: 20 })
  ).endpoint.id;
  await decideLiveAccess(t.app.db, org.partnerId, false, { waiting: false });
  const sessionId = await startSession(t.app.db, org.owner.id, { userAgent: "vitest", address: null });
  request.session = { user: { id: org.owner.id, sessionVersion: org.owner.sessionVersion, sessionId } };
  request.cookies.set(session.MODE_COOKIE, "live");
});
afterAll(() => t.close());

/** Everything of the organisation's live mode, to compare before and after. */
const liveState = async () => {
  const mine = <T extends { partnerId: unknown; mode: unknown }>(table: T) =>
    and(eq(table.partnerId as never, org.partnerId), eq(table.mode as never, "live"));
  return {
    properties: await t.app.db.select().from(schema.properties).where(mine(schema.properties)),
    batches: await t.app.db.select().from(schema.batches).where(mine(schema.batches)),
    endpoints: await t.app.db.select().from(schema.webhookEndpoints).where(mine(schema.webhookEndpoints)),
    keys: await t.app.db.select().from(schema.apiKeys).where(mine(schema.apiKeys)),
    events: await t.app.db.select().from(schema.events).where(mine(schema.events)),
  };
};

/** A form every action can read what it needs from. */
function form(): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries({
    id: endpointId,
    name: "Loans",
    mode: "live",
    cadastral_reference: REFERENCE,
    url: "https://example.com/new",
    description: "x",
    event_types: "property.enriched",
    expires_in: "now",
    overlap: "none",
    role: "developer",
    email: "new@example.test",
    company: "Acme",
    contact: "Ana",
    use: "Mortgages",
  }))
    data.set(name, value);
  data.set("file", new File([`cadastral_reference\n${REFERENCE}\n`], "refs.csv", { type: "text/csv" }));
  return data;
}

describe("live mode without live access, in the portal", () => {
  it("the page context is the test view, and every entry of PORTAL_ACTIONS is refused", async () => {
    const ctx = await session.requirePartner();
    expect(ctx).toMatchObject({ mode: "test", scope: { mode: "test" }, liveRefused: true });
    for (const action of Object.keys(PORTAL_ACTIONS) as PortalAction[])
      expect({ action, answer: await session.memberFor(action) }).toEqual({
        action,
        answer: { refused: NO_LIVE_ACCESS },
      });
  });

  it("every exported action is refused, no live register is asked and no live data changes", async () => {
    const before = await liveState();
    type Action = (...args: unknown[]) => Promise<unknown>;
    const actions = (features.flatMap((actions) => Object.entries(actions)) as [string, unknown][]).filter(
      (entry): entry is [string, Action] => typeof entry[1] === "function" && !ANY_MEMBER.includes(entry[0]),
    );
    expect(actions.length).toBeGreaterThanOrEqual(Object.keys(PORTAL_ACTIONS).length);
    for (const [name, action] of actions) {
      // (previous state, form) for a form's action, (form) for a button's, (id) for the secret's reveal.
      const answer = await (action.length === 2 ? action(undefined, form()) : action(form())).catch((error: unknown) =>
        error instanceof Navigation ? error.message : Promise.reject(error),
      );
      expect({ name, answer }).toEqual({ name, answer: { error: NO_LIVE_ACCESS } });
    }
    expect(liveCalls).toEqual([]);
    expect(await liveState()).toEqual(before);
  });

  it("the switch leads to the request form, and leaves the cookie as it was", async () => {
    request.cookies.set(session.MODE_COOKIE, "test");
    const data = new FormData();
    data.set("mode", "live");
    await expect(portal.switchMode(data)).rejects.toThrow("redirect /keys#live-access");
    expect(request.cookies.get(session.MODE_COOKIE)).toBe("test");
    // Once access is granted again, the same switch goes live.
    await decideLiveAccess(t.app.db, org.partnerId, true, { waiting: false });
    await portal.switchMode(data);
    expect(request.cookies.get(session.MODE_COOKIE)).toBe("live");
    expect(await session.requirePartner()).toMatchObject({ mode: "live", liveRefused: false });
  });
});
