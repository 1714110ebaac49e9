// The outbox's delivery states: without SMTP_URL a message is held (its text kept for operators);
// a mail server that refuses is tried again on EMAIL_RETRY_SCHEDULE until it takes the message,
// or the message fails after the last try, its error kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { loadConfig } from "@/lib/config";
import { liveAccessEmail, outboxPage, queueEmails } from "@/lib/email";
import { registerSendEmailWorker } from "@/jobs/send-email";
import { createTestApp, type TestApp } from "../support/app";
import { recipientsOf, startSmtpServer, type Inbox } from "../support/smtp";
import { eventually } from "../support/wait";

let n = 0;
/** A message to a fresh address (constructed: the live-access template, an address of example.test). */
async function queueOne(t: TestApp) {
  const to = `outbox-${Date.now()}-${++n}@example.test`;
  const message = liveAccessEmail({ organisation: "Banco Ejemplo", approved: true, link: "https://portal.test/keys" });
  const [id] = await t.app.db.transaction((tx) => queueEmails(tx, [{ ...message, to, partnerId: null }]));
  return { id: id!, to };
}
const rowOf = async (t: TestApp, id: string) =>
  (await t.app.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.id, id)))[0]!;
const settledRow = (t: TestApp, id: string, status: string) =>
  eventually(`email ${id} ${status}`, async () => {
    const row = await rowOf(t, id);
    return row.status === status ? row : undefined;
  });

describe("without SMTP_URL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await registerSendEmailWorker(t.app.queue, t.app, 0.5);
  });
  afterAll(() => t?.close());

  it("holds every message with its text, for operators to read in the console", async () => {
    const { id, to } = await queueOne(t);
    const row = await settledRow(t, id, "held");
    expect(row).toMatchObject({
      recipient: to,
      attempts: 0,
      sentAt: null,
      subject: "Live access approved for Banco Ejemplo",
    });
    expect(row.body).toContain("https://portal.test/keys");
    expect((await outboxPage(t.app.db, { status: "held" })).map((e) => e.id)).toContain(id);
  });
});

describe("with a mail server that refuses", () => {
  let t: TestApp;
  let inbox: Inbox;
  beforeAll(async () => {
    inbox = await startSmtpServer();
    t = await createTestApp({
      env: { SMTP_URL: inbox.url, PUBLIC_BASE_URL: "https://portal.test", EMAIL_RETRY_SCHEDULE: "1,1" },
    });
    await registerSendEmailWorker(t.app.queue, t.app, 0.5);
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  it("tries again after a refusal, and the message arrives once", async () => {
    inbox.refuse(1);
    const { id, to } = await queueOne(t);
    const row = await settledRow(t, id, "sent");
    expect(row).toMatchObject({ attempts: 2, lastError: null });
    // Not a one-time link: its text stays for operators.
    expect(row.body).toContain("https://portal.test/keys");
    await inbox.receive(to);
    expect(inbox.messages.filter((m) => recipientsOf(m).includes(to))).toHaveLength(1);
  });

  it("fails after the last try, the server's answer kept", async () => {
    inbox.refuse(3);
    const { id } = await queueOne(t);
    const row = await settledRow(t, id, "failed");
    expect(row.attempts).toBe(3);
    expect(row.lastError).toMatch(/451/);
  });
});

it("SMTP_URL needs PUBLIC_BASE_URL: a link in an email never takes a request's host", () => {
  expect(() => loadConfig({ SMTP_URL: "smtp://127.0.0.1:2525" })).toThrow(/SMTP_URL needs PUBLIC_BASE_URL/);
  expect(loadConfig({ SMTP_URL: "smtp://127.0.0.1:2525", PUBLIC_BASE_URL: "https://p.test/" })).toMatchObject({
    PUBLIC_BASE_URL: "https://p.test",
  });
});
