// A user's sessions, one row per signed-in browser: listed, ended one at a time or all but this one,
// over after the cookie's life, and never another user's to end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { schema } from "@/lib/db";
import { signUp } from "@/lib/auth/accounts";
import { deviceOf, endOtherSessions, endSession, listSessions, sessionAlive, startSession } from "@/lib/auth/sessions";
import { createTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let n = 0;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0";
const SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

async function user() {
  const tag = `${Date.now()}-${++n}`;
  return signUp(t.app, { organisation: `Org ${tag}`, email: `s-${tag}@example.test`, password: "a-long-password" });
}

const { userSessions } = schema;

describe("sessions", () => {
  it("are listed per user, most recently seen first, and ended one at a time or all but this one", async () => {
    const me = await user();
    const laptop = await startSession(t.app.db, me.id, { userAgent: FIREFOX, address: "203.0.113.7" });
    const phone = await startSession(t.app.db, me.id, { userAgent: SAFARI, address: null });
    const tablet = await startSession(t.app.db, me.id, { userAgent: null, address: "198.51.100.2" });
    expect((await listSessions(t.app.db, me.id)).map((s) => s.id).sort()).toEqual([laptop, phone, tablet].sort());
    expect(await sessionAlive(t.app.db, me.id, phone)).toBe(true);

    expect(await endSession(t.app.db, me.id, phone)).toBe(true);
    expect(await sessionAlive(t.app.db, me.id, phone)).toBe(false);
    expect(await endSession(t.app.db, me.id, phone)).toBe(false); // already over
    expect(await sessionAlive(t.app.db, me.id, laptop)).toBe(true);

    expect(await endOtherSessions(t.app.db, me.id, laptop)).toBe(1);
    expect((await listSessions(t.app.db, me.id)).map((s) => s.id)).toEqual([laptop]);
    expect(await sessionAlive(t.app.db, me.id, tablet)).toBe(false);
    expect(await sessionAlive(t.app.db, me.id, laptop)).toBe(true);
  });

  it("are never another user's to end or use", async () => {
    const me = await user();
    const other = await user();
    const mine = await startSession(t.app.db, me.id, { userAgent: FIREFOX, address: null });
    expect(await endSession(t.app.db, other.id, mine)).toBe(false);
    expect(await endOtherSessions(t.app.db, other.id, "not-an-id")).toBe(0);
    expect(await sessionAlive(t.app.db, other.id, mine)).toBe(false);
    expect(await sessionAlive(t.app.db, me.id, mine)).toBe(true);
    for (const id of [undefined, null, 42, "", "not-an-id"])
      expect(await sessionAlive(t.app.db, me.id, id)).toBe(false);
  });

  it("are over after the cookie's life (8 h), and marked seen at most once a minute", async () => {
    const me = await user();
    const id = await startSession(t.app.db, me.id, { userAgent: FIREFOX, address: null });
    const at = (interval: string) => sql`now() - ${interval}::interval`;
    await t.app.db
      .update(userSessions)
      .set({ lastSeenAt: at("30 seconds") })
      .where(eq(userSessions.id, id));
    const [before] = await t.app.db.select().from(userSessions).where(eq(userSessions.id, id));
    expect(await sessionAlive(t.app.db, me.id, id)).toBe(true);
    const [unchanged] = await t.app.db.select().from(userSessions).where(eq(userSessions.id, id));
    expect(unchanged!.lastSeenAt).toEqual(before!.lastSeenAt);
    await t.app.db
      .update(userSessions)
      .set({ lastSeenAt: at("2 minutes") })
      .where(eq(userSessions.id, id));
    expect(await sessionAlive(t.app.db, me.id, id)).toBe(true);
    const [seen] = await t.app.db.select().from(userSessions).where(eq(userSessions.id, id));
    expect(Date.now() - seen!.lastSeenAt.getTime()).toBeLessThan(60_000);

    await t.app.db
      .update(userSessions)
      .set({ createdAt: at("8 hours 1 minute") })
      .where(eq(userSessions.id, id));
    expect(await sessionAlive(t.app.db, me.id, id)).toBe(false);
    expect(await listSessions(t.app.db, me.id)).toEqual([]);
  });

  it("long over, go at the user's next sign-in", async () => {
    const me = await user();
    const old = await startSession(t.app.db, me.id, { userAgent: FIREFOX, address: null });
    await t.app.db
      .update(userSessions)
      .set({ createdAt: sql`now() - interval '31 days'` })
      .where(eq(userSessions.id, old));
    await startSession(t.app.db, me.id, { userAgent: SAFARI, address: null });
    expect(await t.app.db.select().from(userSessions).where(eq(userSessions.id, old))).toEqual([]);
  });
});

describe("deviceOf", () => {
  it("names the browser and its system", () => {
    expect(deviceOf(FIREFOX)).toBe("Firefox 132 on Linux");
    expect(deviceOf(SAFARI)).toBe("Safari 17 on iOS");
    expect(deviceOf(null)).toBe("Unknown browser");
    expect(deviceOf("curl/8.5.0")).toBe("Unknown browser");
    expect(
      deviceOf("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"),
    ).toBe("Chrome 126 on Linux");
  });
});
