import { describe, expect, it } from "vitest";
import { countOf, percentText } from "./format";

describe("portal number words", () => {
  it("counts with the noun in the singular for one", () => {
    expect(countOf(1, "row")).toBe("1 row");
    expect(countOf(0, "row")).toBe("0 rows");
    expect(countOf(2048, "row")).toBe("2,048 rows");
    expect(countOf(2, "entry", "entries")).toBe("2 entries");
  });

  it("never rounds a failure or a success away", () => {
    expect(percentText(1)).toBe("100 %");
    expect(percentText(0)).toBe("0 %");
    // The Overview's case: one failing delivery beside thousands delivered.
    expect(percentText(2999 / 3000)).toBe("99.9 %");
    expect(percentText(0.9999)).toBe("99.9 %");
    expect(percentText(1 / 3000)).toBe("0.1 %");
    expect(percentText(0.995)).toBe("99.5 %");
    expect(percentText(0.987)).toBe("98 %");
    expect(percentText(0.5)).toBe("50 %");
    expect(percentText(0.014)).toBe("2 %");
  });
});
