// The closed sets' helpers: membership typed as the set's word, and a record per rating in order.
import { describe, expect, it } from "vitest";
import { byRating, isOneOf, MODES, oneOf, RATINGS } from "./words";

describe("closed sets", () => {
  it("a word is one of its set, anything else none", () => {
    expect(oneOf(MODES, "live")).toBe("live");
    for (const other of ["Live", "", undefined, null, 1, "toString"]) {
      expect(oneOf(MODES, other)).toBeUndefined();
      expect(isOneOf(MODES, other)).toBe(false);
    }
  });

  it("byRating gives every letter, A to G, with its index in RATINGS", () => {
    const record = byRating((rating, index) => `${rating}${index}`);
    expect(Object.keys(record)).toEqual([...RATINGS]);
    expect(Object.values(record)).toEqual(RATINGS.map((r, i) => `${r}${i}`));
  });
});
