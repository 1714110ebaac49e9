import { describe, expect, it } from "vitest";
import { withProvenance } from "./provenance";
import { PROVIDERS, type SourceOutcome } from "./types";

describe("withProvenance", () => {
  const provenance = { licence: "CC BY 4.0", attribution: "Register" };
  const found: SourceOutcome<{ n: number }> = {
    kind: "found",
    data: { n: 1 },
    provider: PROVIDERS.sandbox,
    summary: { register: "x" },
  };

  it("dates a live answer by the day in Spain it was read: 00:30 on 1 January there is still 2025 in UTC", () => {
    const outcome = withProvenance(found, provenance, new Date("2025-12-31T23:30:00Z"));
    expect(outcome.kind === "found" && outcome.summary).toMatchObject({
      ...provenance,
      retrieved_at: "2025-12-31T23:30:00.000Z",
      as_of: "2026-01-01",
    });
  });

  it("gives an answer without data nothing to attribute", () => {
    const missing: SourceOutcome<{ n: number }> = { kind: "not_found", provider: PROVIDERS.sandbox };
    expect(withProvenance(missing, provenance)).toBe(missing);
  });
});
