import { describe, expect, it } from "vitest";
import { certificateAsOf, iteAsOf, iteOverdue, plausibleRange, type StoredCertificate } from "./property";

describe("ite.overdue", () => {
  it("is the due date against today's date in Spain, not UTC's", () => {
    // 23:30 UTC on 24 November is already 25 November in Madrid (UTC+1 in winter).
    const lateEvening = new Date("2026-11-24T23:30:00Z");
    expect(iteOverdue("2026-11-24", lateEvening)).toBe(true);
    expect(iteOverdue("2026-11-25", lateEvening)).toBe(false);
    expect(iteOverdue("2026-11-26", lateEvening)).toBe(false);
    // Summer time (UTC+2): 22:30 UTC on 30 June is 1 July in Madrid.
    expect(iteOverdue("2026-06-30", new Date("2026-06-30T22:30:00Z"))).toBe(true);
    expect(iteOverdue(null, lateEvening)).toBeNull();
  });

  it("is worked out whenever the inspection is shown, in the schema's order", () => {
    const stored = {
      reference: null,
      registry: null,
      next_due_on: "2030-01-01",
      status: "not_found",
      result: null,
      inspected_on: null,
      overdue: true,
    } as const;
    const shown = iteAsOf(stored, new Date("2026-11-25T12:00:00Z"));
    expect(shown).toEqual({ ...stored, overdue: false });
    expect(Object.keys(shown!)).toEqual([
      "status",
      "inspected_on",
      "result",
      "next_due_on",
      "overdue",
      "registry",
      "reference",
    ]);
    expect(iteAsOf(null, new Date())).toBeNull();
  });
});

describe("certificateAsOf", () => {
  const stored: StoredCertificate = {
    rating: "G",
    source: "registry",
    emissions_rating: null,
    primary_energy_kwh_m2_year: null,
    emissions_kg_co2_m2_year: null,
    issued_on: "2022-02-28",
    valid_until: "2032-02-28",
    expired: false,
    scope: "unit",
    registry: "R",
    certificate_id: null,
    probabilities: null,
    confidence: null,
    basis: null,
  };
  const now = new Date("2027-03-01T12:00:00Z");

  it("works out expiry whenever the certificate is shown", () => {
    const kept = { ...stored, registered_on: null, valid_until_source: "registry" } as const;
    expect(certificateAsOf(kept, now)).toEqual({ ...kept, expired: false, plausible_range: null });
    expect(certificateAsOf(kept, new Date("2032-03-01T12:00:00Z"))).toEqual({
      ...kept,
      expired: true,
      plausible_range: null,
    });
    expect(certificateAsOf(null, now)).toBeNull();
  });

  it("derives again what was stored before valid_until_source: a G's 5 years, no 29 February", () => {
    expect(certificateAsOf(stored, now)).toMatchObject({
      registered_on: null,
      valid_until: "2027-02-28",
      valid_until_source: "derived",
      expired: true,
    });
    const leap = { ...stored, rating: "C", issued_on: "2016-02-29", valid_until: "2026-02-29" } as const;
    expect(certificateAsOf(leap, now)).toMatchObject({ valid_until: "2026-02-28", valid_until_source: "derived" });
    // An end that is not issue + 10 years was the registry's own.
    const given = { ...stored, valid_until: "2031-05-01" };
    expect(certificateAsOf(given, now)).toMatchObject({ valid_until: "2031-05-01", valid_until_source: "registry" });
  });
});

describe("plausibleRange", () => {
  const p = (...v: number[]) => ({ A: v[0]!, B: v[1]!, C: v[2]!, D: v[3]!, E: v[4]!, F: v[5]!, G: v[6]! });

  it("is the narrowest run of letters holding 80 %", () => {
    expect(plausibleRange(p(0, 0, 0, 0.05, 0.85, 0.05, 0.05))).toEqual({ from: "E", to: "E" });
    expect(plausibleRange(p(0.01, 0.01, 0.02, 0.1, 0.48, 0.12, 0.26))).toEqual({ from: "E", to: "G" });
    expect(plausibleRange(p(0.12, 0.23, 0.19, 0.2, 0.17, 0.06, 0.03))).toEqual({ from: "A", to: "E" });
  });

  it("of runs as narrow, takes the one holding more", () => {
    // B-D holds 0.80 and C-E 0.82 (C-D alone 0.71): both three letters wide.
    expect(plausibleRange(p(0.05, 0.09, 0.36, 0.35, 0.11, 0.04, 0))).toEqual({ from: "C", to: "E" });
    expect(plausibleRange(p(0.05, 0.11, 0.36, 0.35, 0.09, 0.04, 0))).toEqual({ from: "B", to: "D" });
  });

  it("is not thrown off by floating point: 0.7 + 0.1 is 80 %", () => {
    expect(plausibleRange(p(0, 0, 0, 0.7, 0.1, 0.1, 0.1))).toEqual({ from: "D", to: "E" });
  });

  it("spans every letter when the probability is spread evenly", () => {
    expect(plausibleRange(p(1, 1, 1, 1, 1, 1, 1))).toEqual({ from: "A", to: "F" });
  });
});
