import { describe, expect, it } from "vitest";
import { addYears, certificateExpired, certificateValidity, isCalendarDate, madridDay } from "./dates";

describe("addYears", () => {
  it("keeps the day, and turns 29 February into 28 February in a common year", () => {
    expect(addYears("2017-01-31", 10)).toBe("2027-01-31");
    expect(addYears("2020-02-29", 10)).toBe("2030-02-28");
    expect(addYears("2020-02-29", 5)).toBe("2025-02-28");
    expect(addYears("2020-02-29", 4)).toBe("2024-02-29");
    expect(addYears("2019-02-28", 1)).toBe("2020-02-28");
  });
  it("refuses what is no calendar date", () => {
    expect(() => addYears("2030-02-29", 1)).toThrow(RangeError);
    expect(() => addYears("2020-13-01", 1)).toThrow(RangeError);
  });
});

describe("isCalendarDate", () => {
  it("is true only for days that exist", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2030-02-29")).toBe(false);
    expect(isCalendarDate("2021-04-31")).toBe(false);
    expect(isCalendarDate("2021-00-10")).toBe(false);
    expect(isCalendarDate("10/05/2021")).toBe(false);
  });
});

describe("certificateValidity", () => {
  it("10 years from issue; 5 for a G issued on or after 2021-06-02 (RD 390/2021)", () => {
    const g = (issuedOn: string) => certificateValidity({ rating: "G", issuedOn, validUntil: null });
    expect(g("2021-06-01")).toEqual({ validUntil: "2031-06-01", source: "derived" });
    expect(g("2021-06-02")).toEqual({ validUntil: "2026-06-02", source: "derived" });
    expect(g("2024-02-29")).toEqual({ validUntil: "2029-02-28", source: "derived" });
    expect(certificateValidity({ rating: "F", issuedOn: "2024-02-29", validUntil: null })).toEqual({
      validUntil: "2034-02-28",
      source: "derived",
    });
  });
  it("the registry's own end wins, whatever the letter", () => {
    expect(certificateValidity({ rating: "G", issuedOn: "2022-01-10", validUntil: "2032-01-10" })).toEqual({
      validUntil: "2032-01-10",
      source: "registry",
    });
  });
  it("without an issue date (a registration date alone) validity is unknown", () => {
    expect(certificateValidity({ rating: "C", issuedOn: null, validUntil: null })).toEqual({
      validUntil: null,
      source: "unknown",
    });
  });
});

describe("certificateExpired", () => {
  it("is the end against today's date in Spain; null when the end is unknown", () => {
    const lateEvening = new Date("2026-11-24T23:30:00Z"); // already 25 November in Madrid
    expect(certificateExpired("2026-11-24", lateEvening)).toBe(true);
    expect(certificateExpired("2026-11-25", lateEvening)).toBe(false);
    expect(certificateExpired(null, lateEvening)).toBeNull();
  });
});

describe("madridDay", () => {
  it("turns at Madrid's midnight, in winter and summer time, whatever instant of the hour was asked first", () => {
    // Constructed: Madrid is UTC+1 in winter (midnight at 23:00 UTC) and UTC+2 in summer (22:00 UTC).
    expect(madridDay(new Date("2026-11-28T22:59:59.999Z"))).toBe("2026-11-28");
    expect(madridDay(new Date("2026-11-28T23:00:00.000Z"))).toBe("2026-11-29");
    expect(madridDay(new Date("2026-11-28T23:59:59.999Z"))).toBe("2026-11-29");
    expect(madridDay(new Date("2026-07-01T21:59:59.999Z"))).toBe("2026-07-01");
    expect(madridDay(new Date("2026-07-01T22:30:00.000Z"))).toBe("2026-07-02");
    expect(madridDay(new Date("2026-07-01T22:00:00.000Z"))).toBe("2026-07-02");
    // The night the clocks go forward (01:00 UTC, 29 March 2026).
    expect(madridDay(new Date("2026-03-28T22:59:59.000Z"))).toBe("2026-03-28");
    expect(madridDay(new Date("2026-03-28T23:00:00.000Z"))).toBe("2026-03-29");
  });
});
