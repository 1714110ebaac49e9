import { describe, expect, it } from "vitest";
import {
  bodyRead,
  keepingBody,
  LOGGED_BODY_BYTES,
  LOGGED_QUERY_CHARS,
  loggableBody,
  loggableHeaders,
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
  const secret = "whsec_c2Vj/cmV0+IHRo==";

  it("redacts keys and secrets in text, and all of it when one hides behind escapes", () => {
    expect(redactSecrets(`{"note":"${key}","s":"${secret}"}`)).toBe(
      '{"note":"[redacted key]","s":"[redacted secret]"}',
    );
    expect(redactSecrets(`a ${key.toUpperCase()} b`)).toBe("a [redacted key] b");
    for (const hidden of ["%66inca_test_x", "wh%73ec_abc", "%2566inca_live_x"])
      expect(redactSecrets(hidden), hidden).toBe("[redacted: it held a key or secret]");
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

  it("takes a key or secret cut short as split across fields: what follows goes with it", () => {
    const rest = key.slice(11);
    const cut = "[redacted key][redacted: all that followed a key or secret cut short]";
    expect(redactSecrets(`{"a":"finca_live_","b":"${rest}"}`)).toBe(`{"a":"${cut}`);
    expect(redactSecrets(`["${key.slice(0, 20)}", "${key.slice(20)}"]`)).toBe(`["${cut}`);
    expect(redactSecrets(`{"a":"finca_test_"}`)).toBe('{"a":"[redacted key]"}');
    expect(loggableQuery(at(`/p?a=finca_live_&b=${rest}&c=1`))).toBe("a=[redacted key]&b=[redacted]&c=1");
    expect(loggableQuery(at(`/p?finca_live_=${rest}`))).toBe("[redacted key]=[redacted]");
    const headers = loggableHeaders(new Request(at("/p"), { headers: { "X-A": "finca_live_", "X-B": rest } }), null);
    expect(headers).toEqual({ "x-a": "[redacted key]", "x-b": "[redacted]" });
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
  });

  it("keeps the query decoded, credentials by name and secrets by shape redacted", () => {
    expect(loggableQuery(at("/p"))).toBeNull();
    expect(loggableQuery(at("/p?"))).toBeNull();
    expect(loggableQuery(at(`/p?limit=5&status=enriched&note=${key}&token=abc&x=%66inca_live_y`))).toBe(
      "limit=5&status=enriched&note=[redacted key]&token=[redacted]&x=[redacted key]",
    );
    expect(loggableQuery(at(`/p?q=${"a".repeat(5000)}`))).toHaveLength(LOGGED_QUERY_CHARS);
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
