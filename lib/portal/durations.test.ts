import { describe, expect, it } from "vitest";
import { aboutTotal, duration, scheduleText } from "./durations";

describe("durations for pages", () => {
  it("reads each delay in its largest short unit", () => {
    expect([5, 300, 1800, 5400, 7200, 36_000, 172_800].map(duration)).toEqual([
      "5 s",
      "5 min",
      "30 min",
      "1.5 h",
      "2 h",
      "10 h",
      "2 d",
    ]);
  });
  it("lists a schedule in order and totals it for prose", () => {
    expect(scheduleText([5, 300, 1800, 7200, 18_000, 36_000, 36_000])).toBe(
      "5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h",
    );
    expect(scheduleText([60])).toBe("1 min");
    expect(aboutTotal([5, 300, 1800, 7200, 18_000, 36_000, 36_000])).toBe("about 28 hours");
    expect(aboutTotal([1, 2, 4, 8])).toBe("about 15 seconds");
    expect(aboutTotal([1, 2, 4, 8, 16, 32, 64])).toBe("about 2 minutes");
  });
});
