import { describe, expect, it } from "vitest";
import { indexKeys } from "./references";

// 2749704YJ0624N0001DI is a real unit (valid check letters); the others are shaped like references.
describe("indexKeys", () => {
  it("keeps a 20-character unit as parcel + 18 characters", () => {
    expect(indexKeys("2749704YJ0624N0001DI")).toEqual([{ parcel: "2749704YJ0624N", unit: "2749704YJ0624N0001" }]);
  });

  it("keeps a bare parcel as a building record", () => {
    expect(indexKeys(" 2749704yj0624n ")).toEqual([{ parcel: "2749704YJ0624N", unit: null }]);
  });

  it("removes spaces, hyphens and dots inside a reference", () => {
    expect(indexKeys("2749704 YJ0624N 0001 DI")).toEqual(indexKeys("2749704YJ0624N0001DI"));
    expect(indexKeys("2749704-YJ0624N-0001-DI")).toEqual(indexKeys("2749704YJ0624N0001DI"));
  });

  it("accepts 18 characters without check letters, and 20 with wrong ones (matched on the 18)", () => {
    expect(indexKeys("2749704YJ0624N0001")).toEqual([{ parcel: "2749704YJ0624N", unit: "2749704YJ0624N0001" }]);
    expect(indexKeys("2749704YJ0624N0001ZZ")).toEqual([{ parcel: "2749704YJ0624N", unit: "2749704YJ0624N0001" }]);
  });

  it("splits several references per field, on separators or none, and deduplicates", () => {
    expect(indexKeys("2749704YJ0624N0001DI, 2749704YJ0624N0002OO;2749704YJ0624N0001DI").map((k) => k.unit)).toEqual([
      "2749704YJ0624N0001",
      "2749704YJ0624N0002",
    ]);
    expect(indexKeys("2749704YJ0624N0001DI y 2749704YJ0624N0003PP").map((k) => k.unit)).toEqual([
      "2749704YJ0624N0001",
      "2749704YJ0624N0003",
    ]);
    expect(indexKeys("2749704YJ0624N0001DI2749704YJ0624N0002OO").map((k) => k.unit)).toEqual([
      "2749704YJ0624N0001",
      "2749704YJ0624N0002",
    ]);
  });

  it("keeps a unit followed by noise only when its check letters are right", () => {
    expect(indexKeys("2749704YJ0624N0001DIBIS").map((k) => k.unit)).toEqual(["2749704YJ0624N0001"]);
    expect(indexKeys("2749704YJ0624N0001ZZBIS")).toEqual([]);
  });

  it("rejects what is no reference", () => {
    for (const field of [
      "",
      "   ",
      "SIN REFERENCIA",
      "2749704YJ0624",
      "2749704YJ0624N00",
      "2749704YJ0624N000?DI",
      "2749704YJ0624NABCDDI",
    ])
      expect(indexKeys(field)).toEqual([]);
    expect(indexKeys(null)).toEqual([]);
  });
});
