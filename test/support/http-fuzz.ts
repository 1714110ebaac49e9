// The HTTP fuzz over raw sockets, for any server of the partner API: the lean node:http server
// (test/api/fuzz-http.test.ts) and `next start` (test/api/fuzz-next.test.ts), so both answer what
// only a real server sees as the contract says — any method and target, odd header bytes,
// Content-Length and chunked framing, invalid UTF-8, broken percent-encoding, TRACE and `*`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BASE_PATH, expectContractAnswer, type Answer } from "./contract";
import { exchange, isParserRejection } from "./raw-http";
import * as arb from "./arbitraries";
import { MAX_BODY_BYTES } from "@/lib/partner-api/request";

export interface FuzzTarget {
  port: number;
  key: string;
  /**
   * Write each request at once instead of in its framing's pieces. For `next start`: Next answers
   * before reading a body it does not need and, on `Connection: close`, closes at once, so a client
   * still writing gets a reset that can drop the answer (HTTP allows that; the lean server reads
   * small bodies to their end instead).
   */
  oneWrite?: boolean;
}

export interface RawRequest {
  method: string;
  target: string;
  /** The path the target names, for the contract oracle. */
  pathname: string;
  headers: [string, string][];
  body?: Buffer;
  /** How the body is framed: Content-Length, or chunked in pieces of these sizes. */
  chunks?: number[];
  /** The X-Request-Id is one the API must echo. */
  saneRequestId?: boolean;
}

export function serialize(r: RawRequest): Buffer[] {
  const headers = [...r.headers];
  if (r.body && !r.chunks) headers.push(["Content-Length", String(r.body.length)]);
  if (r.chunks) headers.push(["Transfer-Encoding", "chunked"]);
  const head = Buffer.from(
    `${r.method} ${r.target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n`,
    "latin1",
  );
  if (!r.body) return [head];
  if (!r.chunks) return [head, r.body];
  const parts = [head];
  for (let at = 0, i = 0; at < r.body.length; i++) {
    const piece = r.body.subarray(at, at + Math.max(1, r.chunks[i % r.chunks.length]!));
    parts.push(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]));
    at += piece.length;
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return parts;
}

export const send = async (
  port: number,
  r: RawRequest,
  options: Parameters<typeof exchange>[2] = {},
  oneWrite = false,
) =>
  (
    await exchange(port, oneWrite ? [Buffer.concat(serialize(r))] : serialize(r), {
      head: r.method === "HEAD",
      ...options,
    })
  ).answer;

const header = (headers: [string, string][], name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];

/** A plain GET of the OpenAPI document (on a connection it closes), with `extra` over it. */
export const openApiRequest = (extra: Partial<RawRequest> = {}): RawRequest => ({
  method: "GET",
  target: `${BASE_PATH}/openapi.json`,
  pathname: `${BASE_PATH}/openapi.json`,
  headers: [
    ["Host", "x"],
    ["Connection", "close"],
  ],
  ...extra,
});

export function expectAnswer(answer: Answer | null, r: RawRequest, statuses?: number[]) {
  expect(answer, `no answer to ${r.method} ${r.target}`).not.toBeNull();
  const requestId = header(r.headers, "x-request-id");
  expectContractAnswer(answer!, {
    method: r.method,
    pathname: r.pathname,
    statuses,
    requestId,
    saneRequestId: r.saneRequestId,
  });
}

export const pathnameOf = (target: string) => new URL(`http://localhost${target}`).pathname;

const segment = fc.oneof(
  fc.uuid(),
  fc.string({ unit: "binary", maxLength: 30 }).map(encodeURIComponent),
  arb.brokenPercent,
);
const target = fc
  .oneof(
    fc.constantFrom(
      "/properties",
      "/properties/",
      "/webhook-endpoints",
      "/webhook-endpoints/",
      "/openapi.json",
      "/openapi.json/",
      "/",
      "/properties/a/b",
    ),
    fc.tuple(fc.constantFrom("/properties/", "/webhook-endpoints/", "/"), segment).map(([p, s]) => p + s),
    fc.webQueryParameters().map((q) => `/properties?${q}`),
  )
  .map((path) => ({ target: BASE_PATH + path, pathname: pathnameOf(BASE_PATH + path) }));

const bodies = fc.oneof(
  { weight: 3, arbitrary: arb.typedReference.map((ref) => JSON.stringify({ cadastral_reference: ref })) },
  arb.jsonBody.map((v) => JSON.stringify(v)),
  fc.string({ unit: "binary", maxLength: 100 }),
  fc.uint8Array({ maxLength: 64 }),
  fc.constantFrom(-1, 0, 1, 100_000).map((delta) => "{}".padEnd(MAX_BODY_BYTES + delta, " ")),
);

const headerName = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/);

// Node refuses more than 16 KiB of headers itself (431); the broken-HTTP property covers that.
const withinHeaderLimit = (r: RawRequest) =>
  r.headers.reduce((size, [n, v]) => size + n.length + v.length + 4, 0) < 15_000;

/** Well-formed HTTP with any content: every one must reach the API and get a contract answer. */
const wellFormed = (key: string) =>
  fc
    .record({
      method: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom("GET", "POST", "DELETE") },
        { weight: 1, arbitrary: fc.constantFrom("PUT", "PATCH", "OPTIONS", "HEAD", "TRACE", "PROPFIND") },
      ),
      target,
      key: fc.oneof(
        { weight: 3, arbitrary: fc.constant(key) },
        { weight: 1, arbitrary: fc.oneof(arb.headerValue, fc.constant(undefined)) },
      ),
      contentType: fc.oneof(
        { weight: 3, arbitrary: arb.jsonContentType },
        { weight: 1, arbitrary: arb.otherContentType },
      ),
      requestId: fc.option(
        fc.oneof(
          arb.saneRequestId.map((value) => ({ value, sane: true })),
          arb.headerValue.map((value) => ({ value, sane: false })),
        ),
        {
          nil: undefined,
        },
      ),
      host: fc.oneof(fc.constant("finca.test"), arb.headerValue),
      extra: fc.array(fc.tuple(headerName, arb.headerValue), { maxLength: 3 }),
      body: fc.option(bodies, { nil: undefined }),
      chunks: fc.option(fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 4 }), {
        nil: undefined,
      }),
    })
    .map((c): RawRequest => {
      const headers: [string, string][] = [
        ["Host", c.host],
        ["Connection", "close"],
      ];
      if (c.key !== undefined) headers.push(["X-API-Key", c.key]);
      if (c.contentType !== undefined) headers.push(["Content-Type", c.contentType]);
      if (c.requestId !== undefined) headers.push(["X-Request-Id", c.requestId.value]);
      // Extra headers must not change the framing (that is the next property's business).
      headers.push(
        ...c.extra.filter(
          ([n]) =>
            !/^(content-length|transfer-encoding|host|x-api-key|content-type|x-request-id|connection|expect|upgrade)$/i.test(
              n,
            ),
        ),
      );
      const body = c.body === undefined ? undefined : Buffer.from(c.body);
      return {
        method: c.method,
        ...c.target,
        headers,
        body,
        chunks: body && c.chunks,
        saneRequestId: c.requestId?.sane,
      };
    })
    .filter(withinHeaderLimit);

/** The fuzz properties and the named odd requests, against the server `target()` names once it runs. */
export function describeHttpFuzz(
  server: string,
  target: () => FuzzTarget,
  runs = { wellFormed: 150, valid: 60, broken: 60 },
) {
  describe(`${server} over raw sockets`, () => {
    it("answers any well-formed request as the contract says, never a 5xx or silence", async () => {
      await fc.assert(
        fc.asyncProperty(wellFormed(target().key), async (r) =>
          expectAnswer(await send(target().port, r, {}, target().oneWrite), r),
        ),
        { numRuns: runs.wellFormed },
      );
    });

    it("valid requests still succeed in any framing, header case and with extra headers", async () => {
      const { key, port } = target();
      const valid = fc
        .record({
          ref: arb.typedReference,
          chunks: fc.option(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }), {
            nil: undefined,
          }),
          names: fc.tuple(fc.mixedCase(fc.constant("x-api-key")), fc.mixedCase(fc.constant("content-type"))),
          requestId: arb.saneRequestId,
          extra: fc.array(
            fc.tuple(
              headerName.map((n) => `X-${n}`),
              arb.headerValue,
            ),
            { maxLength: 3 },
          ),
          keepAlive: fc.boolean(),
        })
        .map(
          (c): RawRequest => ({
            method: "POST",
            target: `${BASE_PATH}/properties`,
            pathname: `${BASE_PATH}/properties`,
            headers: [
              ["Host", "finca.test"],
              [c.names[0], ` ${key} `],
              [c.names[1], "application/json"],
              ["X-Request-Id", c.requestId],
              ...c.extra,
              ...(c.keepAlive ? [] : [["Connection", "close"] as [string, string]]),
            ],
            body: Buffer.from(JSON.stringify({ cadastral_reference: c.ref })),
            chunks: c.chunks,
            saneRequestId: true,
          }),
        )
        .filter(withinHeaderLimit);
      await fc.assert(
        fc.asyncProperty(valid, async (r) => expectAnswer(await send(port, r, {}, target().oneWrite), r, [200, 201])),
        { numRuns: runs.valid },
      );
    });

    it("broken HTTP gets Node's own 400 or a contract answer, and the server keeps serving", async () => {
      const { key, port } = target();
      const base = (headers: string, body = "") =>
        `POST ${BASE_PATH}/properties HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nConnection: close\r\n${headers}\r\n${body}`;
      const broken = fc.oneof(
        fc.constantFrom(
          base("Content-Length: abc\r\n", "{}"),
          base("Content-Length: -1\r\n", "{}"),
          base("Content-Length: 2\r\nContent-Length: 3\r\n", "{}x"),
          base("Content-Length: 2, 2\r\n", "{}"),
          base("Content-Length: 2\r\nTransfer-Encoding: chunked\r\n", "2\r\n{}\r\n0\r\n\r\n"),
          base("Transfer-Encoding: chunked\r\n", "zz\r\n{}\r\n0\r\n\r\n"),
          base("Transfer-Encoding: gzip, chunked\r\n", "2\r\n{}\r\n0\r\n\r\n"),
          base("Transfer-Encoding: identity\r\n", "{}"),
          base("X-Folded: a\r\n b\r\n", ""),
          base("No colon here\r\n", ""),
          base(`X-Big: ${"b".repeat(20_000)}\r\n`, ""),
          base("Expect: 100-continue\r\nContent-Length: 2\r\n", "{}"),
          `FOO ${BASE_PATH}/properties HTTP/1.1\r\nHost: x\r\n\r\n`,
          `GET ${BASE_PATH}/openapi.json HTTP/2.0\r\nHost: x\r\n\r\n`,
          `GET ${BASE_PATH}/openapi.json HTTP/1.1\r\n\r\n`,
          `GET ${BASE_PATH}/openapi.json\r\n\r\n`,
          `GET ${BASE_PATH}/open api.json HTTP/1.1\r\nHost: x\r\n\r\n`,
          `GET ${BASE_PATH}/openapi.json HTTP/1.1\nHost: x\n\n`,
          `GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ),
        fc
          .tuple(
            fc.integer({ min: 0, max: 0x1f }).filter((c) => c !== 0x09),
            fc.constantFrom("X-API-Key", "Content-Type", "X-Request-Id", "Host"),
          )
          .map(([c, name]) => base(`${name}: a${String.fromCharCode(c)}b\r\n`, "")),
        fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
      );
      await fc.assert(
        fc.asyncProperty(broken, async (raw) => {
          const { answer } = await exchange(port, [raw], { timeoutMs: 2_000 });
          // A request Node could not parse, or random bytes it is still waiting to complete, may go unanswered.
          if (answer === null || isParserRejection(answer)) return;
          expect(answer.status, answer.body).toBeLessThan(500);
          expect(answer.headers.get("content-type")).toMatch(/^application\/(problem\+)?json/);
        }),
        { numRuns: runs.broken },
      );
      const health = await send(port, openApiRequest());
      expect(health?.status).toBe(200);
    });
  });

  describe(`${server}: targets, methods and hosts`, () => {
    // Built in the test, once the key exists.
    const request =
      (method: string, path: string, host = "finca.test") =>
      (): RawRequest => ({
        method,
        target: path,
        pathname: path === "*" ? "/" : path.startsWith("/") ? pathnameOf(path) : new URL(path).pathname,
        headers: [
          ["Host", host],
          ["Connection", "close"],
          ["X-API-Key", target().key],
        ],
      });

    it.each([
      ["a Host with a space", request("GET", `${BASE_PATH}/openapi.json`, "a b"), [200]],
      ["a Host of odd bytes", request("GET", `${BASE_PATH}/properties`, "\xff\xfe:99999"), [200]],
      ["an absolute-form target", request("GET", `http://elsewhere.example${BASE_PATH}/openapi.json`), [200]],
      ["TRACE on a path of the API", request("TRACE", `${BASE_PATH}/properties`), [405]],
      ["TRACE elsewhere", request("TRACE", `${BASE_PATH}/nothing`), [404]],
      ["PUT on a path of the API", request("PUT", `${BASE_PATH}/properties`), [405]],
      ["HEAD of a GET", request("HEAD", `${BASE_PATH}/properties`), [200]],
      ["HEAD of the OpenAPI document", request("HEAD", `${BASE_PATH}/openapi.json`), [200]],
      ["a malformed percent-encoded id", request("DELETE", `${BASE_PATH}/webhook-endpoints/%E0%A4%A`), [404]],
      ["a malformed percent-encoded property id", request("GET", `${BASE_PATH}/properties/%E0%A4%A`), [404]],
      ["%ZZ as an id", request("GET", `${BASE_PATH}/properties/%ZZ`), [404]],
      ["a lone % as an id", request("DELETE", `${BASE_PATH}/webhook-endpoints/%`), [404]],
      ["OPTIONS on a path of the API", request("OPTIONS", `${BASE_PATH}/properties`), [405]],
      ["OPTIONS *", request("OPTIONS", "*"), [404]],
      ["doubled slashes under the API's path", request("GET", `${BASE_PATH}//properties`), [404]],
      ["doubled slashes before the API's path", request("POST", `//api//v1/partner-api/properties`), [404]],
    ])("%s", async (_, build, statuses) => {
      const r = build();
      const answer = await send(target().port, r);
      expectAnswer(answer, r, statuses);
      if (answer!.status === 405) expect(answer!.headers.get("allow")).toBe("GET, POST, HEAD");
    });
  });
}
