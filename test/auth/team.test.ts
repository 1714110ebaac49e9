// Team commands check the acting member's role themselves (whoever calls them): each role × command,
// allowed or refused with `forbidden` and nothing changed; only owners make or unmake owners; an
// organisation always keeps an owner, even when two owners demote each other at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNull } from "drizzle-orm";
import { schema } from "@/lib/db";
import { changeRole, createInvitation, removeMember, withdrawInvitation } from "@/lib/auth/team";
import { endSessions, setDisabled, type User } from "@/lib/auth/users";
import { createTestApp, type TestApp } from "../support/app";
import { organisation as teamOf, refusal } from "../support/team";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

const ROLES = ["admin", "developer", "viewer"] as const;
const organisation = () => teamOf(t.app, ROLES);

const roleOf = async (user: User) =>
  (await t.app.db.select({ role: schema.users.role }).from(schema.users).where(eq(schema.users.id, user.id)))[0]?.role;
const invitationsOf = async (partnerId: string) =>
  (await t.app.db.select().from(schema.invitations).where(eq(schema.invitations.partnerId, partnerId))).length;
describe("invitations", () => {
  it("join with the role they were made with", async () => {
    const org = await organisation();
    for (const role of ROLES) expect(await roleOf(org[role])).toBe(role);
  });

  it("owners invite any role, admins any but owner; developers and viewers none, and nothing is made", async () => {
    const org = await organisation();
    const before = await invitationsOf(org.partnerId);
    expect(await createInvitation(t.app.db, org.partnerId, org.owner, { role: "owner" })).toMatch(/^[\w-]{32}$/);
    expect(await createInvitation(t.app.db, org.partnerId, org.admin, { role: "viewer" })).toMatch(/^[\w-]{32}$/);
    expect(await refusal(createInvitation(t.app.db, org.partnerId, org.admin, { role: "owner" }))).toMatchObject({
      code: "forbidden",
      detail: "Only an owner can make a member an owner, or change or remove an owner.",
    });
    for (const member of [org.developer, org.viewer])
      expect(await refusal(createInvitation(t.app.db, org.partnerId, member, { role: "viewer" }))).toMatchObject({
        code: "forbidden",
        detail: expect.stringMatching(/^Your role \((developer|viewer)\) cannot invite, remove or change the role/),
      });
    expect(await invitationsOf(org.partnerId)).toBe(before + 2);
  });

  it("only owners and admins withdraw one", async () => {
    const org = await organisation();
    await createInvitation(t.app.db, org.partnerId, org.owner, { role: "viewer" });
    const [pending] = await t.app.db
      .select()
      .from(schema.invitations)
      .where(and(eq(schema.invitations.partnerId, org.partnerId), isNull(schema.invitations.acceptedAt)));
    const id = pending!.id;
    for (const member of [org.developer, org.viewer])
      expect(await refusal(withdrawInvitation(t.app.db, org.partnerId, member, id))).toMatchObject({
        code: "forbidden",
      });
    expect(await withdrawInvitation(t.app.db, org.partnerId, org.admin, id)).toEqual({ email: null });
  });
});

describe("role changes", () => {
  it("developers and viewers change no one's role", async () => {
    const org = await organisation();
    for (const actor of [org.developer, org.viewer])
      expect(await refusal(changeRole(t.app.db, org.partnerId, actor, org.viewer.id, "developer"))).toMatchObject({
        code: "forbidden",
      });
    expect(await roleOf(org.viewer)).toBe("viewer");
  });

  it("an admin changes developers and viewers, never an owner, and makes no owner", async () => {
    const org = await organisation();
    expect(await changeRole(t.app.db, org.partnerId, org.admin, org.viewer.id, "developer")).toEqual({
      email: org.viewer.email,
      from: "viewer",
      to: "developer",
    });
    expect(await roleOf(org.viewer)).toBe("developer");
    expect(await refusal(changeRole(t.app.db, org.partnerId, org.admin, org.owner.id, "viewer"))).toMatchObject({
      code: "forbidden",
    });
    expect(await refusal(changeRole(t.app.db, org.partnerId, org.admin, org.developer.id, "owner"))).toMatchObject({
      code: "forbidden",
    });
    expect([await roleOf(org.owner), await roleOf(org.developer)]).toEqual(["owner", "developer"]);
  });

  it("the last owner keeps the role; with a second owner either may step down", async () => {
    const org = await organisation();
    expect(await refusal(changeRole(t.app.db, org.partnerId, org.owner, org.owner.id, "admin"))).toMatchObject({
      code: "validation_error",
      detail: "An organisation keeps at least one owner: make another member an owner first.",
    });
    expect(await changeRole(t.app.db, org.partnerId, org.owner, org.admin.id, "owner")).toMatchObject({ to: "owner" });
    expect(await changeRole(t.app.db, org.partnerId, org.owner, org.owner.id, "developer")).toMatchObject({
      to: "developer",
    });
    expect(await roleOf(org.admin)).toBe("owner");
  });

  it("two owners demoting each other at once leave one owner", async () => {
    const org = await organisation();
    await changeRole(t.app.db, org.partnerId, org.owner, org.admin.id, "owner");
    const second = { ...org.admin, role: "owner" as const };
    const results = await Promise.all([
      refusal(changeRole(t.app.db, org.partnerId, org.owner, second.id, "viewer")),
      refusal(changeRole(t.app.db, org.partnerId, second, org.owner.id, "viewer")),
    ]);
    expect(results.filter((r) => r === null)).toHaveLength(1);
    const owners = await t.app.db
      .select()
      .from(schema.users)
      .where(and(eq(schema.users.partnerId, org.partnerId), eq(schema.users.role, "owner")));
    expect(owners).toHaveLength(1);
  });

  it("refuses a member of another organisation, an operator's id and a malformed id", async () => {
    const [org, other] = [await organisation(), await organisation()];
    for (const id of [other.viewer.id, "not-a-uuid"])
      expect(await refusal(changeRole(t.app.db, org.partnerId, org.owner, id, "developer"))).toMatchObject({
        detail: "No such member.",
      });
    expect(await roleOf(other.viewer)).toBe("viewer");
  });
});

describe("invitations outlive no one's access", () => {
  const pending = async (partnerId: string) =>
    (
      await t.app.db
        .select({ role: schema.invitations.role, by: schema.invitations.createdBy })
        .from(schema.invitations)
        .where(and(eq(schema.invitations.partnerId, partnerId), isNull(schema.invitations.acceptedAt)))
    ).map((i) => `${i.role} by ${i.by}`);

  it("a member's pending invitations they could no longer make are withdrawn with their role or their account", async () => {
    const org = await organisation();
    await changeRole(t.app.db, org.partnerId, org.owner, org.admin.id, "owner");
    const second = { ...org.admin, role: "owner" as const };
    await createInvitation(t.app.db, org.partnerId, second, { role: "owner" });
    await createInvitation(t.app.db, org.partnerId, second, { role: "viewer" });
    await createInvitation(t.app.db, org.partnerId, org.owner, { role: "developer" });
    // An owner made an admin keeps the invitations an admin may send, not the owner's.
    await changeRole(t.app.db, org.partnerId, org.owner, second.id, "admin");
    expect((await pending(org.partnerId)).sort()).toEqual([`developer by ${org.owner.id}`, `viewer by ${second.id}`]);
    // Made a developer: none.
    await changeRole(t.app.db, org.partnerId, org.owner, second.id, "developer");
    expect(await pending(org.partnerId)).toEqual([`developer by ${org.owner.id}`]);
    // Removed: none either.
    await changeRole(t.app.db, org.partnerId, org.owner, org.developer.id, "admin");
    await createInvitation(t.app.db, org.partnerId, { ...org.developer, role: "admin" }, { role: "viewer" });
    expect(await pending(org.partnerId)).toHaveLength(2);
    await removeMember(t.app.db, org.partnerId, org.owner, org.developer.id);
    expect(await pending(org.partnerId)).toEqual([`developer by ${org.owner.id}`]);
  });

  it("a member disabled or signed out everywhere by an operator loses every pending invitation", async () => {
    const org = await organisation();
    await createInvitation(t.app.db, org.partnerId, org.admin, { role: "admin" });
    await createInvitation(t.app.db, org.partnerId, org.owner, { role: "viewer" });
    await createInvitation(t.app.db, org.partnerId, org.owner, { role: "owner" });
    await t.app.db.transaction((tx) => setDisabled(tx, "operator-cli", org.admin.id, true));
    expect((await pending(org.partnerId)).sort()).toEqual([`owner by ${org.owner.id}`, `viewer by ${org.owner.id}`]);
    // Enabled again, nothing comes back.
    await setDisabled(t.app.db, "operator-cli", org.admin.id, false);
    expect(await pending(org.partnerId)).toHaveLength(2);
    await endSessions(t.app.db, org.owner.id);
    expect(await pending(org.partnerId)).toEqual([]);
  });
});

describe("removals", () => {
  it("developers and viewers remove no one; admins remove developers and viewers but not owners", async () => {
    const org = await organisation();
    for (const actor of [org.developer, org.viewer])
      expect(await refusal(removeMember(t.app.db, org.partnerId, actor, org.viewer.id))).toMatchObject({
        code: "forbidden",
      });
    expect(await roleOf(org.viewer)).toBe("viewer");
    expect(await refusal(removeMember(t.app.db, org.partnerId, org.admin, org.owner.id))).toMatchObject({
      code: "forbidden",
    });
    expect(await removeMember(t.app.db, org.partnerId, org.admin, org.viewer.id)).toEqual({ email: org.viewer.email });
    expect(await roleOf(org.viewer)).toBeUndefined();
    expect(await roleOf(org.owner)).toBe("owner");
  });

  it("an owner removes another owner, never themself", async () => {
    const org = await organisation();
    await changeRole(t.app.db, org.partnerId, org.owner, org.admin.id, "owner");
    expect(await refusal(removeMember(t.app.db, org.partnerId, org.owner, org.owner.id))).toMatchObject({
      detail: "You cannot remove yourself.",
    });
    expect(await removeMember(t.app.db, org.partnerId, org.owner, org.admin.id)).toEqual({ email: org.admin.email });
    expect(await roleOf(org.owner)).toBe("owner");
  });
});
