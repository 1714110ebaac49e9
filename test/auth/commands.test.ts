// The portal's key, team, live-access and session writes are commands: each checks the member's
// role itself (whoever calls it) before its budget is spent, and writes its row of the security
// history in the change's transaction; a refusal changes, counts and records nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { userActor, type Writer } from "@/lib/audit";
import type { User } from "@/lib/auth/users";
import { createKey, revokeKey, rollKey } from "@/lib/api-keys/commands";
import {
  changeMemberRole,
  endAllOtherSessions,
  endOtherSession,
  invite,
  removeTeamMember,
  requestLive,
  withdrawInvite,
} from "@/lib/auth/commands";
import { listSessions, startSession } from "@/lib/auth/sessions";
import { createTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { organisation, refusal } from "../support/team";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

/** `user` as a command's writer, on a budget that counts how often it was spent. */
const writer = (user: User) => {
  const spent = { n: 0 };
  const by: Writer = { actor: userActor(user, "192.0.2.1"), budget: async () => void spent.n++ };
  return { by, spent };
};
const history = async (partnerId: string) =>
  (
    await t.app.db
      .select({ action: schema.auditEvents.action, actor: schema.auditEvents.actor })
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.partnerId, partnerId))
      .orderBy(schema.auditEvents.seq)
  ).map((row) => `${row.action} by ${row.actor}`);

describe("key commands", () => {
  it("a developer creates, rolls and revokes keys, each with its row; a viewer is refused before the budget", async () => {
    const org = await organisation(t.app, ["developer", "viewer"]);
    const dev = writer(org.developer);
    const made = await createKey(t.app, org.partnerId, dev.by, { name: "Backend", mode: "test" });
    const rolled = await rollKey(t.app, org.partnerId, dev.by, { id: made.apiKey.id, expires_in: "1h" });
    expect(rolled?.oldKeyExpiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(await revokeKey(t.app, org.partnerId, dev.by, rolled!.apiKey.id)).toMatchObject({ name: "Backend" });
    expect(dev.spent.n).toBe(3);

    const viewer = writer(org.viewer);
    expect(await refusal(createKey(t.app, org.partnerId, viewer.by, { name: "x", mode: "test" }))).toMatchObject({
      code: "forbidden",
    });
    expect(await refusal(revokeKey(t.app, org.partnerId, viewer.by, made.apiKey.id))).toMatchObject({
      code: "forbidden",
    });
    expect(viewer.spent.n).toBe(0);
    const by = org.developer.email;
    expect((await history(org.partnerId)).filter((row) => row.startsWith("api_key"))).toEqual([
      `api_key.created by ${by}`,
      `api_key.rolled by ${by}`,
      `api_key.revoked by ${by}`,
    ]);
  });

  it("a live key before live access is refused, and recorded nowhere", async () => {
    const org = await organisation(t.app, []);
    const owner = writer(org.owner);
    expect(await refusal(createKey(t.app, org.partnerId, owner.by, { name: "Live", mode: "live" }))).toMatchObject({
      code: "forbidden",
    });
    expect((await history(org.partnerId)).filter((row) => row.startsWith("api_key"))).toEqual([]);
  });
});

describe("team and live-access commands", () => {
  it("an admin invites, changes a role, withdraws and removes, each recorded; a developer is refused", async () => {
    const org = await organisation(t.app, ["admin", "developer", "viewer"]);
    const admin = writer(org.admin);
    const token = await invite(t.app, org.partnerId, admin.by, { email: "new@example.test", role: "viewer" }, "");
    expect(token).toMatch(/^[\w-]{32}$/);
    const [pending] = await t.app.db
      .select({ id: schema.invitations.id })
      .from(schema.invitations)
      .where(eq(schema.invitations.email, "new@example.test"));
    await changeMemberRole(t.app, org.partnerId, admin.by, { id: org.viewer.id, role: "developer" });
    await withdrawInvite(t.app, org.partnerId, admin.by, pending!.id);
    await removeTeamMember(t.app, org.partnerId, admin.by, org.viewer.id);
    expect(admin.spent.n).toBe(4);

    const developer = writer(org.developer);
    expect(await refusal(invite(t.app, org.partnerId, developer.by, { role: "viewer" }, ""))).toMatchObject({
      code: "forbidden",
    });
    expect(developer.spent.n).toBe(0);
    const by = org.admin.email;
    expect((await history(org.partnerId)).filter((row) => /^(invitation\.(sent|withdrawn)|member)/.test(row))).toEqual([
      `invitation.sent by ${by}`,
      `member.role_changed by ${by}`,
      `invitation.withdrawn by ${by}`,
      `member.removed by ${by}`,
    ]);
  });

  it("only an owner asks for live access", async () => {
    const org = await organisation(t.app, ["admin"]);
    const request = { company: "Acme S.A.", contact: "Ana", use: "Mortgages" };
    expect(await refusal(requestLive(t.app, org.partnerId, writer(org.admin).by, request))).toMatchObject({
      code: "forbidden",
    });
    expect(await requestLive(t.app, org.partnerId, writer(org.owner).by, request)).toEqual(request);
    expect(await history(org.partnerId)).toContain(`live_access.requested by ${org.owner.email}`);
  });
});

describe("session commands", () => {
  it("end another session or all others, never this one, each recorded", async () => {
    const org = await organisation(t.app, []);
    const { owner } = org;
    const start = () => startSession(t.app.db, owner.id, { userAgent: "vitest", address: null });
    const [here, phone] = [await start(), await start()];
    await start(); // a laptop, ended with every other
    const me = { id: owner.id, email: owner.email, partnerId: org.partnerId, sessionId: here };
    const actor = userActor(owner, null);
    expect(await refusal(endOtherSession(t.app, actor, me, here))).toMatchObject({ code: "validation_error" });
    expect(await endOtherSession(t.app, actor, me, phone)).toBe(true);
    expect(await endOtherSession(t.app, actor, me, phone)).toBe(false);
    expect(await endAllOtherSessions(t.app, actor, me)).toBe(1);
    expect((await listSessions(t.app.db, owner.id)).map((s) => s.id)).toEqual([here]);
    expect((await history(org.partnerId)).filter((row) => row.startsWith("session"))).toEqual([
      `session.ended by ${owner.email}`,
      `session.ended_all_others by ${owner.email}`,
    ]);
  });
});
