// Access can be taken away: every change below ends every session the user had, at once.
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  changePassword,
  endSessions,
  getUser,
  resetPassword,
  sessionIsCurrent,
  setDisabled,
  type User,
} from "@/lib/auth/users";
import { checkCredentials, acceptInvitation, signUp } from "@/lib/auth/accounts";
import { createInvitation, removeMember } from "@/lib/auth/team";
import { createTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let n = 0;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

async function team() {
  const tag = `${Date.now()}-${++n}`;
  const owner = await signUp(t.app, {
    organisation: `Org ${tag}`,
    email: `owner-${tag}@example.test`,
    password: "owner-password",
  });
  const token = await createInvitation(t.app.db, owner.partnerId!, owner, { role: "developer" });
  const member = await acceptInvitation(t.app, token, {
    email: `member-${tag}@example.test`,
    password: "member-password",
  });
  return { owner, member };
}

/** The session a user got at sign-in, checked as every page and action checks it. */
const stillSignedIn = async (session: User) =>
  sessionIsCurrent(await getUser(t.app.db, session.id), session.sessionVersion);

it("ending every session of a user (an operator's button) ends every copy of each", async () => {
  const { member } = await team();
  expect(await stillSignedIn(member)).toBe(true);
  await endSessions(t.app.db, member.id);
  expect(await stillSignedIn(member)).toBe(false);
});

it("an owner removes a member: the member's session and sign-in end; owners and other partners' members cannot be removed", async () => {
  const { owner, member } = await team();
  const other = await team();
  await expect(removeMember(t.app.db, owner.partnerId!, owner, other.member.id)).rejects.toThrow(/No such member/);
  await expect(removeMember(t.app.db, owner.partnerId!, owner, owner.id)).rejects.toThrow(/cannot remove yourself/);
  await removeMember(t.app.db, owner.partnerId!, owner, member.id);
  expect(await stillSignedIn(member)).toBe(false);
  expect(await checkCredentials(t.app, member.email, "member-password", { address: null })).toEqual({
    ok: false,
    reason: "invalid",
  });
  expect(await stillSignedIn(other.member)).toBe(true);
});

it("an admin disables a user: sessions end and sign-in is refused until enabled again", async () => {
  const { member, owner } = await team();
  await expect(setDisabled(t.app.db, owner.id, owner.id, true)).rejects.toThrow(/own account/);
  await setDisabled(t.app.db, "admin", member.id, true);
  expect(await stillSignedIn(member)).toBe(false);
  expect(await checkCredentials(t.app, member.email, "member-password", { address: null })).toEqual({
    ok: false,
    reason: "disabled",
  });
  await setDisabled(t.app.db, "admin", member.id, false);
  expect(await checkCredentials(t.app, member.email, "member-password", { address: null })).toMatchObject({ ok: true });
});

it("a password change (self) needs the current password and ends every session", async () => {
  const { member } = await team();
  await expect(
    changePassword(t.app.db, t.app.passwords, member.id, "not-my-password", "brand-new-password"),
  ).rejects.toThrow(/current password/);
  await expect(changePassword(t.app.db, t.app.passwords, member.id, "member-password", "short")).rejects.toThrow(
    /at least/,
  );
  expect(await stillSignedIn(member)).toBe(true);
  await changePassword(t.app.db, t.app.passwords, member.id, "member-password", "brand-new-password");
  expect(await stillSignedIn(member)).toBe(false);
  expect(await checkCredentials(t.app, member.email, "brand-new-password", { address: null })).toMatchObject({
    ok: true,
  });
});

it("an admin's password reset gives a new password once and ends every session", async () => {
  const { owner } = await team();
  const password = await resetPassword(t.app.db, t.app.passwords, owner.id);
  expect(password.length).toBeGreaterThanOrEqual(20);
  expect(await stillSignedIn(owner)).toBe(false);
  expect(await checkCredentials(t.app, owner.email, "owner-password", { address: null })).toEqual({
    ok: false,
    reason: "invalid",
  });
  expect(await checkCredentials(t.app, owner.email, password, { address: null })).toMatchObject({ ok: true });
});
