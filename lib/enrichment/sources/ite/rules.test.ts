import { describe, expect, it } from "vitest";
import { iteRequirement } from "./rules";

const now = new Date("2026-06-01T00:00:00Z");

describe("iteRequirement", () => {
  it.each([
    ["Comunidad de Madrid", 1997, "not_required"],
    ["Comunidad de Madrid", 1996, "required"],
    ["Cataluña", 1982, "not_required"],
    ["Cataluña", 1981, "required"],
    ["Comunitat Valenciana", 1977, "not_required"],
    ["Comunitat Valenciana", 1976, "required"],
    ["Galicia", 2000, "not_required"],
  ])("%s, built %i → %s", (ccaa, yearBuilt, expected) => {
    expect(iteRequirement({ ccaa, yearBuilt, now })).toBe(expected);
  });

  it("never claims not_required where the threshold is unconfirmed", () => {
    expect(iteRequirement({ ccaa: "Castilla y León", yearBuilt: 2020, now })).toBe("unknown");
    expect(iteRequirement({ ccaa: "Andalucía", yearBuilt: 2020, now })).toBe("unknown");
    expect(iteRequirement({ ccaa: null, yearBuilt: 2020, now })).toBe("unknown");
    expect(iteRequirement({ ccaa: "Comunidad de Madrid", yearBuilt: null, now })).toBe("unknown");
  });
});
