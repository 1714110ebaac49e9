import { describe, expect, it } from "vitest";
import { iteAsOf, iteOverdue } from "./property";

describe("ite.overdue", () => {
  it("is the due date against today's date in Spain, not UTC's", () => {
    // 23:30 UTC on 24 November is already 25 November in Madrid (UTC+1 in winter).
    const lateEvening = new Date("2026-11-24T23:30:00Z");
    expect(iteOverdue("2026-11-24", lateEvening)).toBe(true);
    expect(iteOverdue("2026-11-25", lateEvening)).toBe(false);
    expect(iteOverdue("2026-11-26", lateEvening)).toBe(false);
    // Summer time (UTC+2): 22:30 UTC on 30 June is 1 July in Madrid.
    expect(iteOverdue("2026-06-30", new Date("2026-06-30T22:30:00Z"))).toBe(true);
    expect(iteOverdue(null, lateEvening)).toBeNull();
  });

  it("is worked out whenever the inspection is shown, in the schema's order", () => {
    const stored = {
      reference: null,
      registry: null,
      next_due_on: "2030-01-01",
      status: "not_found",
      result: null,
      inspected_on: null,
      overdue: true,
    } as const;
    const shown = iteAsOf(stored, new Date("2026-11-25T12:00:00Z"));
    expect(shown).toEqual({ ...stored, overdue: false });
    expect(Object.keys(shown!)).toEqual([
      "status",
      "inspected_on",
      "result",
      "next_due_on",
      "overdue",
      "registry",
      "reference",
    ]);
    expect(iteAsOf(null, new Date())).toBeNull();
  });
});
