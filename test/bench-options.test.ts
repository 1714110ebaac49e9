// The benchmarks' option parser (bench/lib.ts readOptions), on argument lists as a shell passes them.
import { describe, expect, it } from "vitest";
import { readOptions } from "@/bench/lib";

const defaults = { seconds: 20, rate: 50, workers: "1,3", "no-baseline": false };

describe("readOptions", () => {
  it("gives the defaults, typed as they are, when nothing is passed", () => {
    const read = readOptions(defaults, []);
    expect(read).toEqual({ seconds: 20, rate: 50, workers: "1,3", "no-baseline": false });
  });

  it("reads numbers as numbers, strings as written and flags alone", () => {
    const args = ["--seconds", "0.2", "--rate=5", "--workers", "2", "--no-baseline"];
    expect(readOptions(defaults, args)).toEqual({ seconds: 0.2, rate: 5, workers: "2", "no-baseline": true });
  });

  it("refuses a number option given something else, naming it", () => {
    expect(() => readOptions(defaults, ["--rate", "fast"])).toThrow('--rate takes a number, not "fast"');
    expect(() => readOptions(defaults, ["--seconds="])).toThrow('--seconds takes a number, not ""');
    expect(() => readOptions(defaults, ["--seconds", "Infinity"])).toThrow("--seconds takes a number");
  });

  it("refuses an unknown option and a missing value", () => {
    expect(() => readOptions(defaults, ["--secs", "2"])).toThrow(/Unknown option '--secs'/);
    expect(() => readOptions(defaults, ["--rate"])).toThrow(/--rate/);
  });
});
