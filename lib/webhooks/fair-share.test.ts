import { describe, expect, it } from "vitest";
import { deliverySlots, listenSlots, partnerSlots } from "./fair-share";

describe("partner slots", () => {
  it("caps one partner's slots without touching another's", () => {
    const slots = partnerSlots(2);
    expect(slots.take("a")).toBeTypeOf("function");
    expect(slots.take("a")).toBeTypeOf("function");
    expect(slots.take("a")).toBeNull();
    expect(slots.take("b")).toBeTypeOf("function");
  });

  it("hands a released slot to the partner's waiters in arrival order, before any newcomer", async () => {
    const slots = partnerSlots(1, 60_000);
    const release = slots.take("a")!;
    const order: string[] = [];
    const first = slots.wait("a").then((r) => (order.push("first"), r));
    const second = slots.wait("a").then((r) => (order.push("second"), r));
    release();
    release(); // twice is once
    expect(slots.take("a")).toBeNull(); // the slot went to the first waiter
    (await first)!();
    (await second)!();
    expect(order).toEqual(["first", "second"]);
    expect(slots.take("a")).toBeTypeOf("function");
  });

  it("answers null when no slot comes free within the wait, and forgets the waiter", async () => {
    const slots = partnerSlots(1, 20);
    const release = slots.take("a")!;
    expect(await slots.wait("a")).toBeNull();
    release();
    expect(slots.take("a")).toBeTypeOf("function"); // nobody waiting took it
  });

  it("with a total, refuses every partner once the process holds that many, and frees one with a release", () => {
    const slots = partnerSlots(2, 0, 3);
    const releases = [slots.take("a"), slots.take("a"), slots.take("b")];
    expect(slots.full()).toBe(true);
    expect(slots.take("c")).toBeNull();
    releases[0]!();
    expect(slots.full()).toBe(false);
    expect(slots.take("c")).toBeTypeOf("function");
    expect(slots.take("a")).toBeNull(); // the process is full again
  });
});

describe("delivery slots", () => {
  // Constructed settings: an endpoint between 1 and 4 in flight, a partner's share of 3.
  const settings = { min: 1, max: 4, latencyTargetMs: 1000 };
  const fast = { startedAt: 0, endedAt: 10, statusCode: 204 };

  it("an endpoint's slots follow its receiver: one at first, more after fast successes, halved on a 503", async () => {
    const slots = deliverySlots(10, settings, 0);
    const first = (await slots.wait("p", "e"))!;
    expect(await slots.wait("p", "e")).toBeNull();
    first(fast);
    expect(slots.limit("e")).toBe(2);
    const two = [(await slots.wait("p", "e"))!, (await slots.wait("p", "e"))!];
    expect(await slots.wait("p", "e")).toBeNull();
    two[0]!(fast);
    two[1]!(fast);
    expect(slots.limit("e")).toBe(4);
    const held = (await slots.wait("p", "e"))!;
    held({ startedAt: 20, endedAt: 30, statusCode: 503 });
    held(fast); // twice is once
    expect(slots.limit("e")).toBe(2);
    expect(slots.limit("other")).toBe(1); // another endpoint starts on its own
  });

  it("a release without an outcome (no attempt made) leaves the limit alone", async () => {
    const slots = deliverySlots(10, settings, 0);
    (await slots.wait("p", "e"))!();
    expect(slots.limit("e")).toBe(1);
  });

  it("keeps the partner's share across its endpoints, and gives the endpoint's slot back when the partner's is not free", async () => {
    const slots = deliverySlots(1, settings, 20);
    const held = (await slots.wait("p", "e1"))!;
    expect(await slots.wait("p", "e2")).toBeNull(); // the partner's one slot is in flight
    held();
    expect(await slots.wait("p", "e2")).toBeTypeOf("function"); // e2's own slot was given back
  });

  it("a limit that grew hands out as many slots as it allows to the waiters", async () => {
    let cap = 1;
    const slots = partnerSlots(() => cap, 60_000);
    const release = slots.take("e")!;
    const waiters = [slots.wait("e"), slots.wait("e")];
    cap = 3;
    release();
    expect(await Promise.all(waiters)).toEqual([expect.any(Function), expect.any(Function)]);
  });
});

describe("listen slots", () => {
  const taken = (slot: ReturnType<ReturnType<typeof listenSlots>["take"]>) => typeof slot === "function";

  it("20 free test organisations × 5 sessions never keep an organisation with live access out", () => {
    const slots = listenSlots(5, 100, 50);
    const free = Array.from({ length: 20 }, (_, org) =>
      Array.from({ length: 5 }, () => slots.take(`free-${org}`, false)),
    ).flat();
    expect(free.filter(taken)).toHaveLength(50);
    expect(free.filter((s) => !taken(s))).toEqual(Array(50).fill({ refused: "process" }));
    // Ten organisations with live access get their five sessions each.
    for (let org = 0; org < 10; org++)
      for (let i = 0; i < 5; i++) expect(taken(slots.take(`live-${org}`, true)), `live-${org}`).toBe(true);
    expect(slots.take("live-10", true)).toEqual({ refused: "process" });
  });

  it("lets organisations with live access use what test-only ones leave free, and frees a test-only slot once", () => {
    const slots = listenSlots(5, 10, 5);
    for (let org = 0; org < 2; org++)
      for (let i = 0; i < 5; i++) expect(taken(slots.take(`live-${org}`, true))).toBe(true);
    // The process is full: a test-only organisation waits, as any would.
    expect(slots.take("free", false)).toEqual({ refused: "process" });
    const other = listenSlots(2, 10, 3);
    const release = other.take("a", false) as () => void;
    other.take("a", false);
    expect(other.take("a", false)).toEqual({ refused: "partner" });
    expect(taken(other.take("b", false))).toBe(true);
    expect(other.take("c", false)).toEqual({ refused: "process" });
    release();
    release(); // twice is once
    expect(taken(other.take("c", false))).toBe(true);
    expect(other.take("d", false)).toEqual({ refused: "process" });
  });
});
