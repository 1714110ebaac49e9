// Self-service password reset by email, through the commands the portal's actions call
// (server/password-reset.ts) and a real SMTP server on loopback: the emailed link resets the
// password once, the second use fails; the answer is the same whether or not the account exists;
// requests are throttled per address and per client alike for both; a link, and the invitations the
// account sent, do not outlive a change of password or the end of its sessions.
import { afterAll, beforeAll, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { randomUUID } from "node:crypto";
import { acceptInvitation, checkCredentials, hashToken } from "@/lib/auth/accounts";
import { RESET_LINK_REFUSED } from "@/lib/auth/reset";
import { createInvitation } from "@/lib/auth/team";
import { changePassword, endSessions, getUser, resetPassword, setDisabled } from "@/lib/auth/users";
import { registerSendEmailWorker } from "@/jobs/send-email";
import { askForPasswordReset, resetWithLink } from "@/server/password-reset";
import { createTestApp, type TestApp } from "../support/app";
import { organisation, refusal } from "../support/team";
import { linkIn, recipientsOf, startSmtpServer, type Inbox } from "../support/smtp";
import { eventually } from "../support/wait";

const BASE = "https://portal.finca.test";
let t: TestApp;
let inbox: Inbox;
beforeAll(async () => {
  inbox = await startSmtpServer();
  t = await createTestApp({
    env: {
      SMTP_URL: inbox.url,
      PUBLIC_BASE_URL: BASE,
      PASSWORD_RESETS_PER_EMAIL: "3",
      PASSWORD_RESETS_PER_ADDRESS: "5",
    },
  });
  await registerSendEmailWorker(t.app.queue, t.app, 0.5);
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

let clients = 0;
/** A client address of its own, so one test's requests do not spend another's budget. */
const client = () => ({ address: `198.51.100.${++clients}`, base: BASE });
const tokenOf = (link: string) => new URL(link).pathname.split("/").at(-1)!;
const outboxTo = (email: string) =>
  t.app.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.recipient, email));

it("emails a link that resets the password once; the second use fails", async () => {
  const { owner } = await organisation(t.app, []);
  expect(await askForPasswordReset(t.app, ` ${owner.email.toUpperCase()} `, client())).toBe("sent");
  const mail = await inbox.receive(owner.email, /^Reset your Finca password$/);
  const link = linkIn(mail)!;
  expect(link).toMatch(/^https:\/\/portal\.finca\.test\/reset-password\/[\w-]{43}$/);
  const token = tokenOf(link);
  // Only the token's hash is stored.
  const [reset] = await t.app.db.select().from(schema.passwordResets).where(eq(schema.passwordResets.userId, owner.id));
  expect(reset!.tokenHash).toBe(hashToken(token));
  expect(reset!.expiresAt.getTime() - reset!.createdAt.getTime()).toBe(60 * 60_000);

  const user = await resetWithLink(t.app, token, "a brand new password", "198.51.100.200");
  expect(user).toMatchObject({ id: owner.id, sessionVersion: owner.sessionVersion + 1 });
  const signIn = (password: string) => checkCredentials(t.app, owner.email, password, { address: null });
  expect(await signIn("a brand new password")).toMatchObject({ ok: true });
  expect(await signIn("pw-owner-1234")).toMatchObject({ ok: false, reason: "invalid" });

  expect(await refusal(resetWithLink(t.app, token, "yet another password", null))).toMatchObject({
    code: "validation_error",
    detail: RESET_LINK_REFUSED,
  });
  expect(await signIn("a brand new password")).toMatchObject({ ok: true });
  // Recorded; and once the SMTP server took the message, its one-time link is gone from the outbox.
  const [audit] = await t.app.db
    .select()
    .from(schema.auditEvents)
    .where(and(eq(schema.auditEvents.action, "password.reset_by_email"), eq(schema.auditEvents.target, owner.email)));
  expect(audit).toMatchObject({ partnerId: owner.partnerId, address: "198.51.100.200" });
  const [row] = await eventually("the outbox row marked sent", async () => {
    const rows = await outboxTo(owner.email);
    return rows[0]?.status === "sent" ? rows : undefined;
  });
  expect(row).toMatchObject({ kind: "password_reset", body: null, secret: true, attempts: 1, lastError: null });
  expect(row!.messageId).toBe(mail.messageId);
});

it("answers an address without an account as one with, and writes nothing for it", async () => {
  const { owner } = await organisation(t.app, []);
  const known = await askForPasswordReset(t.app, owner.email, client());
  const unknown = await askForPasswordReset(t.app, "nobody-here@example.test", client());
  expect(unknown).toBe(known);
  expect(await outboxTo("nobody-here@example.test")).toEqual([]);
  await inbox.receive(owner.email, /Reset/);
});

it("a newer request replaces an unused link; an expired link is refused", async () => {
  const { owner } = await organisation(t.app, []);
  await askForPasswordReset(t.app, owner.email, client());
  await askForPasswordReset(t.app, owner.email, client());
  const mails = await eventually("two reset emails", () => {
    const found = inbox.messages.filter((m) => recipientsOf(m).includes(owner.email));
    return found.length === 2 ? found : undefined;
  });
  const tokens = mails.map((m) => tokenOf(linkIn(m)!));
  const live = await t.app.db
    .select({ hash: schema.passwordResets.tokenHash })
    .from(schema.passwordResets)
    .where(eq(schema.passwordResets.userId, owner.id));
  expect(live).toHaveLength(1);
  const newer = tokens.find((token) => hashToken(token) === live[0]!.hash)!;
  const older = tokens.find((token) => token !== newer)!;
  expect(await refusal(resetWithLink(t.app, older, "password number one", null))).toMatchObject({
    detail: RESET_LINK_REFUSED,
  });
  await t.app.db
    .update(schema.passwordResets)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(schema.passwordResets.userId, owner.id));
  expect(await refusal(resetWithLink(t.app, newer, "password number two", null))).toMatchObject({
    detail: RESET_LINK_REFUSED,
  });
  expect((await getUser(t.app.db, owner.id))!.passwordHash).toBe(owner.passwordHash);
});

it("throttles per address and per client, the same for addresses with and without an account", async () => {
  const { owner } = await organisation(t.app, []);
  for (const email of [owner.email, "no-account@example.test"]) {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await askForPasswordReset(t.app, email, client()));
    expect(answers).toEqual(["sent", "sent", "sent", "throttled"]);
  }
  const one = client();
  const answers = [];
  for (let i = 0; i < 6; i++) answers.push(await askForPasswordReset(t.app, `someone-${i}@example.test`, one));
  expect(answers).toEqual(["sent", "sent", "sent", "sent", "sent", "throttled"]);
});

it("a disabled account gets no link", async () => {
  const { owner } = await organisation(t.app, []);
  await t.app.db.update(schema.users).set({ disabledAt: new Date() }).where(eq(schema.users.id, owner.id));
  expect(await askForPasswordReset(t.app, owner.email, client())).toBe("sent");
  expect(await outboxTo(owner.email)).toEqual([]);
});

it("a link asked before the password changed, its sessions ended or the account disabled no longer works", async () => {
  const actions = {
    "its own change": (id: string) => changePassword(t.app.db, t.app.passwords, id, "pw-owner-1234", "changed pw 1234"),
    "an operator's reset": (id: string) => resetPassword(t.app.db, t.app.passwords, id),
    "sessions ended": (id: string) => endSessions(t.app.db, id),
    "a disable and enable": async (id: string) => {
      await setDisabled(t.app.db, randomUUID(), id, true);
      await setDisabled(t.app.db, randomUUID(), id, false);
    },
  };
  for (const [name, act] of Object.entries(actions)) {
    const { owner } = await organisation(t.app, []);
    expect(await askForPasswordReset(t.app, owner.email, client())).toBe("sent");
    const token = tokenOf(linkIn(await inbox.receive(owner.email, /^Reset your Finca password$/))!);
    await act(owner.id);
    expect((await refusal(resetWithLink(t.app, token, "taken over pw 123", null)))?.detail, name).toBe(
      RESET_LINK_REFUSED,
    );
  }
});

it("a reset by link, like a password change, withdraws the invitations the account sent", async () => {
  for (const recover of ["link", "change"] as const) {
    const { owner, partnerId } = await organisation(t.app, []);
    // Made by whoever held the owner's session.
    const invitation = await createInvitation(t.app.db, partnerId, owner, { role: "owner" });
    if (recover === "link") {
      expect(await askForPasswordReset(t.app, owner.email, client())).toBe("sent");
      const token = tokenOf(linkIn(await inbox.receive(owner.email, /^Reset your Finca password$/))!);
      await resetWithLink(t.app, token, "recovered pw 1234", null);
    } else await changePassword(t.app.db, t.app.passwords, owner.id, "pw-owner-1234", "recovered pw 1234");
    const joined = acceptInvitation(t.app, invitation, {
      email: `intruder-${recover}@example.test`,
      password: "x-12345678",
    });
    expect((await refusal(joined))?.detail, recover).toMatch(/invalid, expired or already used/);
  }
});
