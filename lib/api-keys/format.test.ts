import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey, parseApiKey, visibleStart } from "./format";

describe("API key format", () => {
  it("generates prefixed base62 keys that parse back with their mode", () => {
    for (const mode of ["test", "live"] as const) {
      const key = generateApiKey(mode);
      expect(key).toMatch(new RegExp(`^finca_${mode}_[0-9A-Za-z]{38}$`));
      expect(parseApiKey(key)).toEqual({ mode, key });
    }
  });

  it("keys are random", () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey("test")));
    expect(keys.size).toBe(200);
  });

  it("rejects any single-character change (checksum)", () => {
    const key = generateApiKey("live");
    const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    for (let i = "finca_live_".length; i < key.length; i++) {
      const replacement = alphabet[(alphabet.indexOf(key[i]!) + 1) % 62]!;
      expect(parseApiKey(key.slice(0, i) + replacement + key.slice(i + 1))).toBeNull();
    }
  });

  it("rejects a test key relabelled as live, and noise", () => {
    const key = generateApiKey("test");
    expect(parseApiKey(key.replace("finca_test_", "finca_live_"))).toBeNull();
    for (const noise of ["", "finca_test_", "finca_test_abc", "sk_live_" + "a".repeat(38), key + "x", ` ${key}`]) {
      expect(parseApiKey(noise)).toBeNull();
    }
  });

  it("hashes with SHA-256 and shows only a short start", () => {
    const key = generateApiKey("test");
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(11));
    expect(visibleStart(key)).toBe(key.slice(0, 17));
  });
});
