// What the product emails besides password resets, read from a real SMTP server on loopback: an
// invitation's link (it joins), live access decisions (to the owners only), an endpoint failing for
// a day (once per run of failures) and its disabling after WEBHOOK_DISABLE_AFTER_DAYS; and a change
// that rolls back sends nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { rowsOf, schema } from "@/lib/db";
import { acceptInvitation } from "@/lib/auth/accounts";
import { invite } from "@/lib/auth/commands";
import { userActor } from "@/lib/audit";
import { decideLiveAccessAndTell, queueEmails, liveAccessEmail } from "@/lib/email";
import { requestLiveAccess } from "@/lib/partners/live";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { recordEvent, type DeliverJob } from "@/lib/webhooks/events";
import { deliverMany } from "@/lib/webhooks/deliver";
import { registerSendEmailWorker } from "@/jobs/send-email";
import type { EmailKind } from "@/lib/domain";
import { createTestApp, type TestApp } from "../support/app";
import { organisation } from "../support/team";
import { linkIn, recipientsOf, startSmtpServer, type Inbox } from "../support/smtp";
import { startReceiver, type Receiver } from "../support/receiver";
import { aProperty } from "../support/payloads";

const BASE = "https://portal.finca.test";
let t: TestApp;
let inbox: Inbox;
let receiver: Receiver;
beforeAll(async () => {
  inbox = await startSmtpServer();
  receiver = await startReceiver();
  t = await createTestApp({
    env: { SMTP_URL: inbox.url, PUBLIC_BASE_URL: BASE, FINCA_WEBHOOKS_ALLOW_PRIVATE: "1" },
  });
  await registerSendEmailWorker(t.app.queue, t.app, 0.5);
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
  await receiver?.close();
});

const outbox = (partnerId: string, kind: EmailKind) =>
  t.app.db
    .select()
    .from(schema.emailOutbox)
    .where(and(eq(schema.emailOutbox.partnerId, partnerId), eq(schema.emailOutbox.kind, kind)));

describe("invitations", () => {
  it("email the link to the invited address, and the link joins", async () => {
    const org = await organisation(t.app, []);
    const by = { actor: userActor(org.owner, null), budget: async () => {} };
    const email = `Invited-${Date.now()}@Example.test`;
    const token = await invite(t.app, org.partnerId, by, { email, role: "developer" }, BASE);
    const mail = await inbox.receive(email.toLowerCase(), /^You are invited to join Team /);
    expect(mail.text).toContain(`${org.owner.email} invites you to join Team`);
    expect(linkIn(mail)).toBe(`${BASE}/invite/${token}`);
    const joined = await acceptInvitation(t.app, linkIn(mail)!.split("/").at(-1)!, {
      email: email.toLowerCase(),
      password: "pw-joined-1234",
    });
    expect(joined).toMatchObject({ partnerId: org.partnerId, role: "developer" });
  });

  it("a link for anyone is not emailed", async () => {
    const org = await organisation(t.app, []);
    await invite(
      t.app,
      org.partnerId,
      { actor: userActor(org.owner, null), budget: async () => {} },
      { role: "viewer" },
      BASE,
    );
    expect(await outbox(org.partnerId, "invitation")).toEqual([]);
  });
});

describe("live access decisions", () => {
  it("are emailed to the organisation's owners only", async () => {
    const org = await organisation(t.app, ["admin", "developer"]);
    const body = { company: "Banco Ejemplo SA", contact: "risk@example.test", use: "Mortgage valuations" };
    await requestLiveAccess(t.app.db, org.partnerId, org.owner, body);
    await t.app.db.transaction((tx) => decideLiveAccessAndTell(tx, org.partnerId, true, { base: BASE }));
    const mail = await inbox.receive(org.owner.email, /^Live access approved for Team /);
    expect(linkIn(mail)).toBe(`${BASE}/keys`);
    expect((await outbox(org.partnerId, "live_access_decided")).map((r) => r.recipient)).toEqual([org.owner.email]);
  });

  it("nothing decided, nothing sent; a rolled-back change sends nothing", async () => {
    const org = await organisation(t.app, []);
    expect(await t.app.db.transaction((tx) => decideLiveAccessAndTell(tx, org.partnerId, false, { base: BASE }))).toBe(
      null,
    );
    await t.app.db
      .transaction(async (tx) => {
        await queueEmails(tx, [
          {
            ...liveAccessEmail({ organisation: "x", approved: true, link: BASE }),
            to: org.owner.email,
            partnerId: org.partnerId,
          },
        ]);
        throw new Error("rolled back");
      })
      .catch(() => {});
    expect(await outbox(org.partnerId, "live_access_decided")).toEqual([]);
    const jobs = rowsOf<{ n: number }>(
      await t.app.db.execute(sql`select count(*)::int as n from pgboss.job where name = 'send-email'
        and data->>'emailId' not in (select id::text from ${schema.emailOutbox})`),
    );
    expect(jobs[0]!.n).toBe(0);
  });
});

describe("a failing webhook endpoint", () => {
  /** The delivery's newest queued job, run as the worker would at `at`. */
  async function runNext(deliveryId: string, at: Date) {
    const [job] = rowsOf<{ data: DeliverJob }>(
      await t.app.db.execute(
        sql`select data from pgboss.job where name = 'deliver-webhook' and data->>'deliveryId' = ${deliveryId}
            order by created_on desc, id desc limit 1`,
      ),
    );
    return (await deliverMany({ ...t.app, now: () => at }, [job!.data]))[0];
  }

  it("tells its owners, admins and developers once a day in, once per run; disabled after 5 days, told again", async () => {
    const org = await organisation(t.app, ["admin", "developer", "viewer"]);
    const scope = { partnerId: org.partnerId, mode: "test" as const };
    const { endpoint } = await createEndpoint(
      t.app.db,
      scope,
      { url: receiver.url },
      { allowPrivate: true, maxEndpoints: 5 },
    );
    receiver.script(...Array.from({ length: 6 }, () => ({ status: 500, body: "down" })));
    const event = await t.app.db.transaction((tx) =>
      recordEvent(tx, t.app.queue, { ...scope, type: "property.enriched", propertyId: null, payload: aProperty() }),
    );
    const [delivery] = await t.app.db
      .select()
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.eventId, event.id));
    const start = new Date();
    const hours = (h: number) => new Date(start.getTime() + h * 3600_000);
    expect(await runNext(delivery!.id, start)).toBe("retry");
    expect(await runNext(delivery!.id, hours(23))).toBe("retry");
    expect(await outbox(org.partnerId, "endpoint_failing")).toEqual([]);
    expect(await runNext(delivery!.id, hours(25))).toBe("retry");
    expect(await runNext(delivery!.id, hours(30))).toBe("retry");
    const failing = await outbox(org.partnerId, "endpoint_failing");
    expect(failing.map((r) => r.recipient).sort()).toEqual(
      [org.owner.email, org.admin.email, org.developer.email].sort(),
    );
    const mail = await inbox.receive(org.developer.email, /^Webhook endpoint failing: /);
    expect(mail.text).toContain(receiver.url);
    expect(mail.text).toContain(`See its deliveries and their answers:\n${BASE}/webhooks/${endpoint.id}\n`);

    expect(await runNext(delivery!.id, hours(5 * 24 + 1))).toBe("failed");
    const [row] = await t.app.db
      .select()
      .from(schema.webhookEndpoints)
      .where(eq(schema.webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ enabled: false, disabledReason: "failing_5_days" });
    const disabled = await inbox.receive(org.owner.email, /^Webhook endpoint disabled: /);
    expect(disabled.text).toContain("failing_5_days");
    expect(await outbox(org.partnerId, "endpoint_disabled")).toHaveLength(3);
    expect(inbox.messages.filter((m) => recipientsOf(m).includes(org.viewer.email))).toEqual([]);
  });
});
