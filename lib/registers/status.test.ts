import { describe, expect, it } from "vitest";
import { isStale } from "./status";

describe("isStale", () => {
  it("counts the days in Spain: at 00:30 on 1 January there a copy of 1 December is 31 days old", () => {
    const newYear = new Date("2025-12-31T23:30:00Z");
    expect(isStale("2025-12-01", 30, newYear)).toBe(true);
    expect(isStale("2025-12-02", 30, newYear)).toBe(false);
    expect(isStale(null, 30, newYear)).toBeNull();
  });
});
