import { describe, expect, it } from "vitest";
import { daySpan, idParam, isoDay, oneParam, queryOf, searchText } from "./params";

describe("portal query parameters", () => {
  it("takes the first of repeated parameters", () => {
    expect(oneParam(["a", "b"])).toBe("a");
    expect(oneParam(undefined)).toBeUndefined();
  });
  it("accepts only days that exist", () => {
    expect(isoDay("2024-02-29")).toBe("2024-02-29");
    for (const bad of [
      "2024-13-45",
      "9999-99-99",
      "2023-02-29",
      "2024-1-01",
      "",
      "2024-01-01T00:00",
      "0000-01-01",
      "9999-12-31",
    ])
      expect(isoDay(bad), bad).toBeUndefined();
  });
  it("drops control characters from search text and bounds it", () => {
    expect(searchText("\u0000", 100)).toBeUndefined();
    expect(searchText(" ca\u0000lle ", 100)).toBe("calle");
    expect(searchText("x".repeat(500), 100)).toHaveLength(100);
  });
  it("accepts only a UUID as a cursor", () => {
    expect(idParam("-".repeat(36))).toBeUndefined();
    expect(idParam("0b0c2d4e-8f00-4a4a-9b9b-0123456789ab")).toBe("0b0c2d4e-8f00-4a4a-9b9b-0123456789ab");
  });
  it("spans whole UTC days, the last one included", () => {
    expect(daySpan("2024-02-28", "2024-02-29")).toEqual({
      start: new Date("2024-02-28T00:00:00Z"),
      end: new Date("2024-03-01T00:00:00Z"),
    });
    expect(daySpan()).toEqual({ start: undefined, end: undefined });
  });
  it("keeps the filters that are set in a list's query", () => {
    expect(queryOf({ q: "calle", status: undefined, page: 2, path: "" }).toString()).toBe("q=calle&page=2");
  });
});
