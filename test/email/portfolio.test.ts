// A completed portfolio is emailed to the members who opted in (Account page), and to no one else,
// read from a real SMTP server on loopback.
import { afterAll, beforeAll, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { createApiKey } from "@/lib/api-keys";
import { setPortfolioEmails } from "@/lib/auth/users";
import { checkLetters } from "@/lib/cadastral-reference";
import { createTestApp, type TestApp } from "../support/app";
import { organisation } from "../support/team";
import { fakeSources } from "../support/fake-sources";
import { batchOf, postJson, settled } from "../support/batches";
import { linkIn, startSmtpServer, type Inbox } from "../support/smtp";

const BASE = "https://portal.finca.test";
let t: TestApp;
let inbox: Inbox;
beforeAll(async () => {
  inbox = await startSmtpServer();
  t = await createTestApp({
    sources: fakeSources(),
    workers: true,
    env: { SMTP_URL: inbox.url, PUBLIC_BASE_URL: BASE, BATCH_WINDOW: "3" },
  });
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

// Constructed: valid unit references (check letters computed) on a made-up parcel.
const unit = (n: number) => {
  const parcel = `${String(4100000 + n).padStart(7, "0")}YJ0624N`;
  return `${parcel}0001${checkLetters(`${parcel}0001`)}`;
};

it("emails the members who opted in when a portfolio completes", async () => {
  const org = await organisation(t.app, ["developer"]);
  await setPortfolioEmails(t.app.db, org.owner.id, true);
  const { key } = await createApiKey(t.app.db, { partnerId: org.partnerId, mode: "test", name: "k" });
  const items = [unit(1), unit(2), unit(1)].map((r) => ({ cadastral_reference: r }));
  const batch = await batchOf(await t.api.createBatch(postJson({ name: "Q3 loans", items }, { "X-API-Key": key })));
  await settled(t, key, batch.batch_id);
  const mail = await inbox.receive(org.owner.email, /^Portfolio completed: Q3 loans \(test\)$/);
  expect(mail.text).toMatch(/duplicate: 1/);
  expect(linkIn(mail)).toBe(`${BASE}/portfolios/${batch.batch_id}`);
  const rows = await t.app.db
    .select({ to: schema.emailOutbox.recipient })
    .from(schema.emailOutbox)
    .where(and(eq(schema.emailOutbox.partnerId, org.partnerId), eq(schema.emailOutbox.kind, "portfolio_completed")));
  expect(rows).toEqual([{ to: org.owner.email }]);
});
