import { describe, expect, it } from "vitest";
import { listenSlots, partnerSlots } from "./fair-share";

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
