import { describe, expect, it } from "vitest";
import { loggablePath, MAX_LOGGED_PATH, requestIdOf } from "./request";

const at = (path: string) => `http://finca.test${path}`;

describe("loggablePath", () => {
  it("keeps an ordinary path as sent, without its query", () => {
    expect(loggablePath(at("/api/v1/partner-api/properties/%C3%B1?token=abc"))).toBe(
      "/api/v1/partner-api/properties/%C3%B1",
    );
  });

  it("redacts a key or secret and all that follows it, however it is percent-encoded", () => {
    const cases: [string, string][] = [
      ["/p/finca_live_abcdef123", "/p/finca_live_[redacted]"],
      ["/p/FINCA_TEST_abcdef123/more", "/p/FINCA_TEST_[redacted]"],
      ["/p/finca%5Flive%5Fabcdef", "/p/finca_live_[redacted]"],
      ["/p/%66inca_live_abcdef", "/p/finca_live_[redacted]"],
      ["/p/%2566inca_live_abcdef", "/p/finca_live_[redacted]"],
      // A signing secret's base64 may hold a slash: what follows it is the secret's too.
      ["/p/whsec_ab/cd+ef/ghTAIL==", "/p/whsec_[redacted]"],
      ["/p/wh%73ec_abc", "/p/whsec_[redacted]"],
    ];
    for (const [path, logged] of cases) expect(loggablePath(at(path)), path).toBe(logged);
  });

  it("never throws on malformed percent-encoding, and decodes only what could spell a secret", () => {
    expect(loggablePath(at("/p/%E0%A4%A/%ZZ"))).toBe("/p/%E0%A4%A/%ZZ");
    expect(loggablePath(at("/p/%ZZ/%66inca_test_x"))).toBe("/p/%ZZ/finca_test_[redacted]");
  });

  it(`cuts a path at ${MAX_LOGGED_PATH} characters`, () => {
    const logged = loggablePath(at(`/p/${"a".repeat(20_000)}`));
    expect(logged).toHaveLength(MAX_LOGGED_PATH);
    expect(logged.endsWith("…")).toBe(true);
  });
});

describe("requestIdOf", () => {
  const idOf = (id: string) => requestIdOf(new Request(at("/"), { headers: { "X-Request-Id": id } }));

  it("adopts a sane client id, and makes one for anything else", () => {
    expect(idOf("client-123:abc")).toBe("client-123:abc");
    for (const bad of ["finca_live_abc123", "x-FINCA_TEST_abc", "whsec_abc", "has space", "a".repeat(129)])
      expect(idOf(bad), bad).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
