import { describe, expect, it } from "vitest";
import { checkLetters, checkReference, normalizeReference, unitNumber } from ".";

// Valid references from docs/cadastral-reference.md (real, observed or from python-stdnum).
const VALID_20 = [
  "2749704YJ0624N0001DI",
  "9398516VK3799G0001AY",
  "9398516VK3799G0018WB",
  "6344205CF7664S0001GP",
  "7506313DF2870F0001MD",
  "7506313DF2870F0003WG",
  "7506313DF2870F0015AQ",
  "13005A109000050000SL",
  "28099A007090040000FW",
  "8897006XH8189N0001IU",
  "7837301VG8173B0001TT",
  "4A08169P03PRAT0001LR",
  "06900A228000090000EB",
  "000100100QE45D0001GA",
];

describe("normalizeReference", () => {
  it("trims, removes spaces and hyphens, upper-cases", () => {
    expect(normalizeReference("  9872023 vh5797s-0001 wx ")).toBe("9872023VH5797S0001WX");
    expect(normalizeReference("\t2749704-yj0624n-0001-di\n")).toBe("2749704YJ0624N0001DI");
  });
  it("upper-cases ñ and composes a decomposed Ñ", () => {
    expect(normalizeReference("abcñ")).toBe("ABCÑ");
    expect(normalizeReference("abcN\u0303")).toBe("ABCÑ");
  });
});

describe("checkReference", () => {
  it.each(VALID_20)("accepts %s", (ref) => {
    expect(checkReference(ref)).toEqual({ ok: true, reference: ref, length: 20 });
  });

  it("computes the DGC manual's worked example", () => {
    expect(checkLetters("2749704YJ0624N0001")).toBe("DI");
  });

  it("accepts 14-character parcels by shape only", () => {
    expect(checkReference("9398516VK3799G")).toEqual({ ok: true, reference: "9398516VK3799G", length: 14 });
    expect(checkReference("13005a10900005")).toMatchObject({ ok: true, reference: "13005A10900005" });
  });

  it("rejects wrong check letters", () => {
    expect(checkReference("7837301VG8173B0001NN")).toMatchObject({ ok: false, reason: "check_letters" });
    expect(checkReference("2749704YJ0624N0001ID")).toMatchObject({ ok: false, reason: "check_letters" });
  });

  it("rejects every single-letter change of the check characters", () => {
    const ref = "9398516VK3799G0001AY";
    for (const pos of [18, 19]) {
      for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
        if (c === ref[pos]) continue;
        const mutated = ref.slice(0, pos) + c + ref.slice(pos + 1);
        expect(checkReference(mutated).ok).toBe(false);
      }
    }
  });

  it("rejects other lengths, including 18", () => {
    for (const ref of ["", "1234567", "9398516VK3799G00", "9398516VK3799G0001", "9398516VK3799G0001AYX"]) {
      expect(checkReference(ref)).toMatchObject({ ok: false, reason: "length" });
    }
  });

  it("rejects characters outside [0-9A-ZÑ]", () => {
    for (const ref of ["9398516VK3799G_", "9398516VK3799.", "9398516VK3799Ç", "939851/VK3799G"]) {
      expect(checkReference(ref)).toMatchObject({ ok: false, reason: "charset" });
    }
  });

  it("handles Ñ in the alphabet (value 15)", () => {
    const first18 = "1234567ÑB1234C0001";
    const ref = first18 + checkLetters(first18);
    expect(checkReference(ref)).toMatchObject({ ok: true });
    expect(checkLetters("1234567NB1234C0001")).not.toBe(checkLetters(first18));
  });
});

describe("unitNumber", () => {
  it("returns characters 15-18 of a unit reference", () => {
    expect(unitNumber("9398516VK3799G0018WB")).toBe("0018");
    expect(unitNumber("9398516VK3799G")).toBeNull();
  });
});
