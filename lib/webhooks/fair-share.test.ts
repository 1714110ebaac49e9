import { describe, expect, it } from "vitest";
import { partnerSlots } from "./fair-share";

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
