import { describe, expect, it } from "vitest";
import { aboutTotal, axisTicks, duration, scheduleText } from "./durations";

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

  it("marks a time axis in round steps of one unit", () => {
    const axis = (spanMs: number) => {
      const { ticks, label } = axisTicks(spanMs);
      return ticks.map(label);
    };
    expect(axis(300)).toEqual(["0 ms", "100 ms", "200 ms", "300 ms"]);
    expect(axis(1537)).toEqual(["0 s", "0.5 s", "1 s", "1.5 s"]);
    expect(axis(45_000)).toEqual(["0 s", "20 s", "40 s"]);
    expect(axis(10 * 60_000)).toEqual(["0 min", "5 min", "10 min"]);
    expect(axis(90 * 60_000)).toEqual(["0 h", "0.5 h", "1 h", "1.5 h"]);
    expect(axis(0)).toEqual(["0 ms", "0.5 ms", "1 ms"]);
  });
});
