// The process's one listen poller: every open session's events from one query per poll (a query per
// session every poll let 400 sessions starve the API), each session given its own partner's events
// from its start on, once and in order.
import { afterAll, beforeAll, expect, it } from "vitest";
import { recordEvent } from "@/lib/webhooks/events";
import { listenHub } from "@/lib/webhooks/listen";
import { createTestApp, newPartnerKey, type TestApp } from "../support/app";
import { countingSelects } from "../support/counting-db";
import { fakeSources } from "../support/fake-sources";
import { eventually } from "../support/wait";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

const event = (partnerId: string, n: number) => ({
  partnerId,
  mode: "test" as const,
  type: "webhook.test" as const,
  propertyId: null,
  payload: { n },
});

it("serves every session from one query a poll, each its own partner's events from its start", async () => {
  const pollMs = 50;
  // The hub's polls are its only selects.
  const { db, counter: count } = countingSelects(t.app.db);
  const hub = listenHub(db, pollMs);
  const partners = await Promise.all([1, 2, 3, 4].map(() => newPartnerKey(t.app).then((k) => k.partner.id)));
  // An event before any session: no one's.
  await recordEvent(t.app.db, t.app.queue, event(partners[0]!, 0));
  const received = new Map<number, number[]>();
  const stops: (() => void)[] = [];
  for (let i = 0; i < 20; i++) {
    received.set(i, []);
    const scope = { partnerId: partners[i % 4]!, mode: "test" as const };
    stops.push(
      await hub.subscribe(
        scope,
        (e) => received.get(i)!.push((e.payload as { n: number }).n),
        (error) => {
          throw error;
        },
      ),
    );
  }
  const opened = Date.now();
  const before = count.selects;
  for (const [p, partnerId] of partners.entries())
    for (let n = 1; n <= 3; n++) await recordEvent(t.app.db, t.app.queue, event(partnerId, p * 10 + n));
  await eventually("every session's three events", async () => [...received.values()].every((r) => r.length >= 3));
  const polls = count.selects - before;
  // One query a poll, however many sessions: at most one per pollMs elapsed (a slow host polls less).
  expect(polls).toBeLessThanOrEqual(Math.ceil((Date.now() - opened) / pollMs) + 1);
  for (const [i, got] of received) {
    const p = i % 4;
    expect(got, `session ${i}`).toEqual([p * 10 + 1, p * 10 + 2, p * 10 + 3]);
  }
  for (const stop of stops) stop();
  // Without sessions the hub does not poll.
  const idle = count.selects;
  await new Promise((resolve) => setTimeout(resolve, pollMs * 4));
  expect(count.selects).toBe(idle);
  hub.close();
});

it("a session joining later gets nothing of its partner's events from before it started", async () => {
  const hub = listenHub(t.app.db, 20);
  const [early, late] = await Promise.all([newPartnerKey(t.app), newPartnerKey(t.app)]);
  const gotEarly: number[] = [];
  const stopEarly = await hub.subscribe(
    { partnerId: early.partner.id, mode: "test" },
    (e) => gotEarly.push((e.payload as { n: number }).n),
    () => {},
  );
  await recordEvent(t.app.db, t.app.queue, event(early.partner.id, 1));
  await eventually("the early session's event", async () => gotEarly.length === 1);
  // The late partner's event is recorded before its session opens: the hub's cursor is older.
  await recordEvent(t.app.db, t.app.queue, event(late.partner.id, 100));
  const gotLate: number[] = [];
  const stopLate = await hub.subscribe(
    { partnerId: late.partner.id, mode: "test" },
    (e) => gotLate.push((e.payload as { n: number }).n),
    () => {},
  );
  await recordEvent(t.app.db, t.app.queue, event(late.partner.id, 101));
  await eventually("the late session's own event", async () => gotLate.length >= 1);
  expect(gotLate).toEqual([101]);
  expect(gotEarly).toEqual([1]);
  stopEarly();
  stopLate();
  hub.close();
});

it("streams an event whose transaction commits after a later-stamped one's, once, in its place", async () => {
  const hub = listenHub(t.app.db, 20);
  const { partner } = await newPartnerKey(t.app);
  const got: number[] = [];
  const stop = await hub.subscribe(
    { partnerId: partner.id, mode: "test" },
    (e) => got.push((e.payload as { n: number }).n),
    (error) => {
      throw error;
    },
  );
  // Event 1 is stamped with its transaction's start and committed last; event 2, stamped later,
  // commits first and is polled while 1 is not yet visible.
  let commit = () => {};
  const held = new Promise<void>((resolve) => (commit = resolve));
  const slow = t.app.db.transaction(async (tx) => {
    await recordEvent(tx, t.app.queue, event(partner.id, 1));
    await held;
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  await recordEvent(t.app.db, t.app.queue, event(partner.id, 2));
  // Polls go by while 1's transaction is open: 2 waits behind it, as stamped.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(got).toEqual([]);
  commit();
  await slow;
  await eventually("both events", async () => got.length >= 2);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(got).toEqual([1, 2]);
  stop();
  hub.close();
});
