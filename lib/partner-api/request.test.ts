import { describe, expect, it } from "vitest";
import {
  bodyRead,
  keepingBody,
  LOGGED_BODY_BYTES,
  LOGGED_QUERY_CHARS,
  loggableBody,
  loggableHeaders,
  loggableJson,
  loggablePath,
  loggableQuery,
  MAX_LOGGED_PATH,
  readBody,
  redactSecrets,
  requestIdOf,
} from "./request";

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

  it("redacts a URL's userinfo in a path, and all that follows escapes nested too deep to read", () => {
    expect(loggablePath(at("/api/v1/partner-api/properties/https:%2F%2Fadmin:hunter2@db.example.com"))).toBe(
      "/api/v1/partner-api/properties/https://[redacted]@db.example.com",
    );
    expect(loggablePath(at("//admin:hunter2@finca.test/api/v1/x"))).toBe("//[redacted]@finca.test/api/v1/x");
    expect(loggablePath(at(`/p/%${"25".repeat(20)}66inca_live_x`))).toBe("/p/[redacted: escapes nested too deep]");
    expect(loggablePath(at(`/p/%${"25".repeat(6)}66inca_live_x`))).toBe("/p/finca_live_[redacted]");
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

describe("what a request log keeps of a request", () => {
  const key = "finca_live_AbCdEf0123456789AbCdEf0123456789zzzzzz";
  const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
  const CUT_SHORT = "[redacted: it held a key or secret cut short]";

  it("redacts keys and secrets in text, and all of it when one hides behind escapes", () => {
    expect(redactSecrets(`{"note":"${key}","s":"${secret}"}`)).toBe(
      '{"note":"[redacted key]","s":"[redacted secret]"}',
    );
    expect(redactSecrets(`a ${key.toUpperCase()} b`)).toBe("a [redacted key] b");
    for (const hidden of ["%66inca_test_x", "wh%73ec_abc", "%2566inca_live_x", `%${"25".repeat(6)}66inca_live_x`])
      expect(redactSecrets(hidden), hidden).toBe("[redacted: it held a key or secret]");
    expect(redactSecrets(`%${"25".repeat(20)}66inca_live_x`)).toBe("[redacted: escapes nested too deep]");
    expect(redactSecrets('{"cadastral_reference":"9872023VH5797S0001WX"}')).toBe(
      '{"cadastral_reference":"9872023VH5797S0001WX"}',
    );
  });

  it("matches keys and secrets in the text as JSON decodes it, cutting out what was sent for them", () => {
    const whole = "whsec_MTIzNDU2Nzg5MDEyMzQ1Njc4OTAx/jM0NTY3ODkwMTI+NDU2Nzg5MDE=";
    const cases: [string, string][] = [
      // PHP's json_encode writes `\/`: the secret's base64 runs on past it.
      [`{"s":"${whole.replaceAll("/", "\\/")}"}`, '{"s":"[redacted secret]"}'],
      [`{"k":"${key.slice(0, 20)}\\u00${key.charCodeAt(20).toString(16)}${key.slice(21)}"}`, '{"k":"[redacted key]"}'],
      [`{"n":"\\u0066inca_live_${key.slice(11)}","m":1}`, '{"n":"[redacted key]","m":1}'],
      [`{"k":"finca\\u005ftest_${key.slice(11)}"}`, '{"k":"[redacted key]"}'],
    ];
    for (const [text, kept] of cases) expect(redactSecrets(text), text).toBe(kept);
  });

  it("takes a key or secret cut short as split across fields, its rest before or after it: keeps none of them", () => {
    const rest = key.slice(11);
    for (const text of [
      `{"a":"finca_live_","b":"${rest}"}`,
      `{"b":"${rest}","a":"finca_live_"}`,
      `["${key.slice(0, 20)}", "${key.slice(20)}"]`,
      `{"a":"finca_test_"}`,
      `{"s":"${secret.slice(0, 30)}"}`,
    ])
      expect(redactSecrets(text), text).toBe(CUT_SHORT);
    for (const query of [
      `a=finca_live_&b=${rest}&c=1`,
      `finca_live_=${rest}`,
      `a=finca_live_&${rest}=1`,
      `b=${rest}&a=finca_live_`,
    ])
      expect(loggableQuery(at(`/p?${query}`)), query).toBe(CUT_SHORT);
    // Headers come sorted by name, not in the order sent: the rest may be in any of them.
    const splits: Record<string, string>[] = [
      { "X-A": "finca_live_", "X-B": rest },
      { "Z-Prefix": "finca_live_", "A-Rest": rest },
    ];
    for (const sent of splits)
      expect(loggableHeaders(new Request(at("/p"), { headers: sent }), null)).toEqual({ "[redacted]": CUT_SHORT });
    // A key cut short where the key belongs is replaced as a credential: the other headers stay.
    const badKey = new Request(at("/p"), { headers: { "X-API-Key": "finca_live_abc", Accept: "*/*" } });
    expect(loggableHeaders(badKey, null)).toEqual({ accept: "*/*", "x-api-key": "[redacted]" });
  });

  it("redacts a URL's userinfo, escaped or not", () => {
    expect(redactSecrets('{"u":"https://bob:hunter2@example.com/x?y=1"}')).toBe(
      '{"u":"https://[redacted]@example.com/x?y=1"}',
    );
    expect(redactSecrets('{"u":"https:\\/\\/bob:hunter2@example.com\\/x"}')).toBe(
      '{"u":"https:\\/\\/[redacted]@example.com\\/x"}',
    );
    expect(redactSecrets("ftp://token@host and mail bob@example.com")).toBe(
      "ftp://[redacted]@host and mail bob@example.com",
    );
    expect(loggableQuery(at("/p?callback=https%3A%2F%2Fu%3Ap%40h.example%2F"))).toBe(
      "callback=https://[redacted]@h.example/",
    );
    expect(loggableQuery(at("/p?callback=https%253A%252F%252Fu%253Ap%2540h.example"))).toBe(
      "callback=[redacted: it held a URL's credentials]",
    );
    // A key in the userinfo, or the userinfo around it: all of it goes.
    expect(redactSecrets(`https://${key}:hunter2@example.com/x`)).toBe("https://[redacted]@example.com/x");
    expect(redactSecrets(`https://admin:hunter2${key}@example.com/x`)).toBe("https://[redacted]@example.com/x");
  });

  it("keeps the query decoded, credentials by name and secrets by shape redacted", () => {
    expect(loggableQuery(at("/p"))).toBeNull();
    expect(loggableQuery(at("/p?"))).toBeNull();
    expect(loggableQuery(at(`/p?limit=5&status=enriched&note=${key}&token=abc&x=%66inca_live_${key.slice(11)}`))).toBe(
      "limit=5&status=enriched&note=[redacted key]&token=[redacted]&x=[redacted key]",
    );
    const credentials =
      "pwd=1&pass=2&db.pass=3&private_key=4&access-key=5&credential=6&X-Amz-Credential=7&pass%2577ord=8";
    expect(loggableQuery(at(`/p?${credentials}&compass=9`))).toBe(
      `${credentials.replace(/=\d/g, "=[redacted]").replace("%2577", "%77")}&compass=9`,
    );
    expect(loggableQuery(at(`/p?q=${"a".repeat(5000)}`))).toHaveLength(LOGGED_QUERY_CHARS);
    // Cut without splitting a character in two.
    expect(loggableQuery(at(`/p?q=${"a".repeat(LOGGED_QUERY_CHARS - 4)}😀😀`))).toBe(
      `q=${"a".repeat(LOGGED_QUERY_CHARS - 4)}…`,
    );
  });

  it("keeps headers without credentials: the key by its visible start when it was valid", () => {
    const req = new Request(at("/p"), {
      headers: {
        "X-API-Key": key,
        Authorization: "Bearer abc",
        Cookie: "session=abc",
        "X-Auth-Token": "abc",
        "X-Note": `pasted ${key}`,
        [key]: "a key as a name",
        "Idempotency-Key": "order-1",
        "Content-Type": "application/json",
      },
    });
    expect(loggableHeaders(req, key.slice(0, 17))).toEqual({
      "x-api-key": `${key.slice(0, 17)}…`,
      authorization: "[redacted]",
      cookie: "[redacted]",
      "x-auth-token": "[redacted]",
      "x-note": "pasted [redacted key]",
      "[redacted key]": "a key as a name",
      "idempotency-key": "order-1",
      "content-type": "application/json",
    });
    expect(loggableHeaders(req, null)["x-api-key"]).toBe("[redacted]");
    const sent = [
      ["x-pwd", "a"],
      ["x-credential", "b"],
      ["x-private-key", "c"],
      ["__proto__", "d"],
    ] as [string, string][];
    const odd = new Request(at("/p"), { headers: sent });
    expect(Object.entries(loggableHeaders(odd, null))).toEqual([
      ["__proto__", "d"],
      ["x-credential", "[redacted]"],
      ["x-private-key", "[redacted]"],
      ["x-pwd", "[redacted]"],
    ]);
  });

  it("keeps a problem's strings redacted: a detail or pointer may repeat what was sent", () => {
    const problem = { status: 422, detail: `no column named "${key}"`, errors: [{ pointer: `/${key}`, detail: "x" }] };
    expect(loggableJson(problem)).toEqual({
      status: 422,
      detail: 'no column named "[redacted key]"',
      errors: [{ pointer: "/[redacted key]", detail: "x" }],
    });
  });

  it("says a body is binary when it is not UTF-8 text, finds a key in UTF-16 text, and keeps a BOM", () => {
    const body = (bytes: Uint8Array, size = bytes.byteLength) => loggableBody({ head: bytes, bytes: size });
    expect(body(Buffer.from(JSON.stringify({ k: key }), "utf16le"))).toBe("[redacted: it held a key or secret]");
    expect(body(Uint8Array.from([0x61, 0x62, 0xe2, 0x82]))).toBe("(binary, 4 bytes)");
    // Cut at the head's end of a longer body, a character's first bytes are no error.
    expect(body(Uint8Array.from([0x61, 0x62, 0xe2, 0x82]), 9000)).toBe("ab…");
    expect(body(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBe("\ufeff{}");
  });

  it(`keeps the first ${LOGGED_BODY_BYTES} bytes of a body a handler read, marking a longer one`, async () => {
    const small = new Request(at("/p"), { method: "POST", body: `{"k":"${key}"}` });
    expect(loggableBody(bodyRead(small))).toBeNull();
    await readBody(small, 1000);
    expect(loggableBody(bodyRead(small))).toBe('{"k":"[redacted key]"}');

    const long = "x".repeat(10_000);
    const streamed = new Request(at("/p"), { method: "POST", body: long });
    let read = 0;
    const pieces = async function* () {
      yield Buffer.from(long.slice(0, 3000));
      yield Buffer.from(long.slice(3000));
    };
    for await (const chunk of keepingBody(streamed, pieces())) read += chunk.byteLength;
    expect(read).toBe(10_000);
    expect(loggableBody(bodyRead(streamed))).toBe(`${"x".repeat(LOGGED_BODY_BYTES)}…`);
  });
});
