// Property-based fuzzing of the lean node:http server (lib/partner-api/node-server.ts) over raw
// sockets: what only a real server sees — any method and target, odd header bytes, Content-Length
// and chunked framing, invalid UTF-8, bodies over the cap that never end, aborted and slow bodies.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { BASE_PATH, expectContractAnswer, type Answer } from "../support/contract";
import { exchange, isParserRejection } from "../support/raw-http";
import * as arb from "../support/arbitraries";
import { createPartnerApiServer } from "@/lib/partner-api/node-server";
import { MAX_BODY_BYTES } from "@/lib/partner-api/request";

let t: TestApp;
let key: string;
// The fuzz makes more writes than the rate limit allows; 429 has its own tests.
useTestApp({ sources: fakeSources(), env: { RATE_LIMIT_WRITES: "1000000" } }, (ctx) => ({ t, key } = ctx));

let server: Server;
let port: number;
beforeAll(async () => {
  server = createPartnerApiServer(t.api);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// The API logs only what went wrong on its side (a 5xx, a misjudged failure), even when the
// client never sees the answer, as with an aborted body.
const errors = vi.spyOn(console, "error");
afterEach(() => {
  const logged = errors.mock.calls.filter(([first]) => String(first).startsWith("[api]"));
  errors.mockClear();
  expect(logged).toEqual([]);
});

interface RawRequest {
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

function serialize(r: RawRequest): Buffer[] {
  const headers = [...r.headers];
  if (r.body && !r.chunks) headers.push(["Content-Length", String(r.body.length)]);
  if (r.chunks) headers.push(["Transfer-Encoding", "chunked"]);
  const head = Buffer.from(`${r.method} ${r.target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n`, "latin1");
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

const send = async (r: RawRequest, options: Parameters<typeof exchange>[2] = {}) =>
  (await exchange(port, serialize(r), { head: r.method === "HEAD", ...options })).answer;

const header = (headers: [string, string][], name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];

function expectAnswer(answer: Answer | null, r: RawRequest, statuses?: number[]) {
  expect(answer, `no answer to ${r.method} ${r.target}`).not.toBeNull();
  const requestId = header(r.headers, "x-request-id");
  expectContractAnswer(answer!, { method: r.method, pathname: r.pathname, statuses, requestId, saneRequestId: r.saneRequestId });
}

const pathnameOf = (target: string) => new URL(`http://localhost${target}`).pathname;

const segment = fc.oneof(fc.uuid(), fc.string({ unit: "binary", maxLength: 30 }).map(encodeURIComponent), arb.brokenPercent);
const target = fc
  .oneof(
    fc.constantFrom("/properties", "/properties/", "/webhook-endpoints", "/webhook-endpoints/", "/openapi.json", "/openapi.json/", "/", "/properties/a/b"),
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
const withinHeaderLimit = (r: RawRequest) => r.headers.reduce((size, [n, v]) => size + n.length + v.length + 4, 0) < 15_000;

/** Well-formed HTTP with any content: every one must reach the API and get a contract answer. */
const wellFormed = () =>
  fc
    .record({
      method: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom("GET", "POST", "DELETE") },
        { weight: 1, arbitrary: fc.constantFrom("PUT", "PATCH", "OPTIONS", "HEAD", "TRACE", "PROPFIND") },
      ),
      target,
      key: fc.oneof({ weight: 3, arbitrary: fc.constant(key) }, { weight: 1, arbitrary: fc.oneof(arb.headerValue, fc.constant(undefined)) }),
      contentType: fc.oneof({ weight: 3, arbitrary: arb.jsonContentType }, { weight: 1, arbitrary: arb.otherContentType }),
      requestId: fc.option(fc.oneof(arb.saneRequestId.map((value) => ({ value, sane: true })), arb.headerValue.map((value) => ({ value, sane: false }))), {
        nil: undefined,
      }),
      host: fc.oneof(fc.constant("finca.test"), arb.headerValue),
      extra: fc.array(fc.tuple(headerName, arb.headerValue), { maxLength: 3 }),
      body: fc.option(bodies, { nil: undefined }),
      chunks: fc.option(fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 4 }), { nil: undefined }),
    })
    .map((c): RawRequest => {
      const headers: [string, string][] = [["Host", c.host], ["Connection", "close"]];
      if (c.key !== undefined) headers.push(["X-API-Key", c.key]);
      if (c.contentType !== undefined) headers.push(["Content-Type", c.contentType]);
      if (c.requestId !== undefined) headers.push(["X-Request-Id", c.requestId.value]);
      // Extra headers must not change the framing (that is the next property's business).
      headers.push(...c.extra.filter(([n]) => !/^(content-length|transfer-encoding|host|x-api-key|content-type|x-request-id|connection|expect|upgrade)$/i.test(n)));
      const body = c.body === undefined ? undefined : Buffer.from(c.body);
      return { method: c.method, ...c.target, headers, body, chunks: body && c.chunks, saneRequestId: c.requestId?.sane };
    })
    .filter(withinHeaderLimit);

describe("lean server over raw sockets", () => {
  it("answers any well-formed request as the contract says, never a 5xx or silence", async () => {
    await fc.assert(
      fc.asyncProperty(wellFormed(), async (r) => expectAnswer(await send(r), r)),
      { numRuns: 150 },
    );
  });

  it("valid requests still succeed in any framing, header case and with extra headers", async () => {
    const valid = fc
      .record({
        ref: arb.typedReference,
        chunks: fc.option(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }), { nil: undefined }),
        names: fc.tuple(fc.mixedCase(fc.constant("x-api-key")), fc.mixedCase(fc.constant("content-type"))),
        requestId: arb.saneRequestId,
        extra: fc.array(fc.tuple(headerName.map((n) => `X-${n}`), arb.headerValue), { maxLength: 3 }),
        keepAlive: fc.boolean(),
      })
      .map((c): RawRequest => ({
        method: "POST",
        target: `${BASE_PATH}/properties`,
        pathname: `${BASE_PATH}/properties`,
        headers: [["Host", "finca.test"], [c.names[0], ` ${key} `], [c.names[1], "application/json"], ["X-Request-Id", c.requestId], ...c.extra, ...(c.keepAlive ? [] : [["Connection", "close"] as [string, string]])],
        body: Buffer.from(JSON.stringify({ cadastral_reference: c.ref })),
        chunks: c.chunks,
        saneRequestId: true,
      }))
      .filter(withinHeaderLimit);
    await fc.assert(
      fc.asyncProperty(valid, async (r) => expectAnswer(await send(r), r, [200, 201])),
      { numRuns: 60 },
    );
  });

  it("broken HTTP gets Node's own 400 or a contract answer, and the server keeps serving", async () => {
    const base = (headers: string, body = "") => `POST ${BASE_PATH}/properties HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nConnection: close\r\n${headers}\r\n${body}`;
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
      fc.tuple(fc.integer({ min: 0, max: 0x1f }).filter((c) => c !== 0x09), fc.constantFrom("X-API-Key", "Content-Type", "X-Request-Id", "Host")).map(
        ([c, name]) => base(`${name}: a${String.fromCharCode(c)}b\r\n`, ""),
      ),
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
      { numRuns: 60 },
    );
    const health = await send({ method: "GET", target: `${BASE_PATH}/openapi.json`, pathname: `${BASE_PATH}/openapi.json`, headers: [["Host", "x"], ["Connection", "close"]] });
    expect(health?.status).toBe(200);
  });
});

describe("lean server: bodies", () => {
  const create = (body?: Buffer, chunks?: number[]): RawRequest => ({
    method: "POST",
    target: `${BASE_PATH}/properties`,
    pathname: `${BASE_PATH}/properties`,
    headers: [["Host", "x"], ["X-API-Key", key], ["Content-Type", "application/json"], ["Connection", "close"]],
    body,
    chunks,
  });
  const padded = (size: number) => Buffer.from(JSON.stringify({ cadastral_reference: "2749704YJ0624N0001DI" }).padEnd(size, " "));

  it.each([
    ["Content-Length", undefined],
    ["chunked", [4096]],
  ])("caps the body at 16 KiB (%s): at the cap it succeeds, one byte over is a 422", async (_, chunks) => {
    expectAnswer(await send(create(padded(MAX_BODY_BYTES), chunks)), create(), [200, 201]);
    const over = await send(create(padded(MAX_BODY_BYTES + 1), chunks));
    expectAnswer(over, create(), [422]);
    expect(JSON.parse(over!.body).detail).toMatch(/exceed/);
  });

  it("rejects a declared body of several MiB at once, without waiting for it", async () => {
    const r = create();
    const head = serialize({ ...r, headers: [...r.headers, ["Content-Length", String(5 * 1024 * 1024)]] })[0]!;
    const { answer } = await exchange(port, [head, Buffer.alloc(1024, 0x20)]);
    expectAnswer(answer, r, [422]);
  });

  it("rejects a chunked body over the cap before it ends, and one of several MiB without reading it all", async () => {
    const head = serialize({ ...create(), headers: [...create().headers, ["Transfer-Encoding", "chunked"]] })[0]!;
    const chunk = Buffer.concat([Buffer.from("4000\r\n"), Buffer.alloc(0x4000, 0x20), Buffer.from("\r\n")]);
    // 32 KiB sent and the body never finished: the answer cannot wait for its end.
    const unfinished = await exchange(port, [head, chunk, chunk]);
    expectAnswer(unfinished.answer, create(), [422]);
    // 8 MiB offered: the answer comes (and sending stops) long before the end.
    const huge = await exchange(port, [head, ...Array<Buffer>(512).fill(chunk), Buffer.from("0\r\n\r\n")]);
    expectAnswer(huge.answer, create(), [422]);
    expect(huge.written).toBeLessThan(4 * 1024 * 1024);
  });

  it("closes a keep-alive connection whose body it did not read, instead of draining it", async () => {
    const r = create();
    const keepAlive = r.headers.filter(([n]) => n !== "Connection");
    const head = serialize({ ...r, headers: [...keepAlive, ["Content-Length", String(5 * 1024 * 1024)]] })[0]!;
    const { answer } = await exchange(port, [head, Buffer.alloc(1024, 0x20)]);
    expectAnswer(answer, r, [422]);
    expect(answer!.headers.get("connection")).toBe("close");
    const fits = create(padded(100));
    const kept = await send({ ...fits, headers: fits.headers.filter(([n]) => n !== "Connection") });
    expectAnswer(kept, fits, [200, 201]);
    expect(kept!.headers.get("connection")).not.toBe("close");
  });

  it("invalid UTF-8 is a 422", async () => {
    const r = create(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d]));
    expectAnswer(await send(r), r, [422]);
  });

  it("survives a client that aborts mid-body, and serves the next request", async () => {
    const r = create(Buffer.from('{"cadastral_reference":"2749'));
    const head = serialize({ ...r, headers: [...r.headers, ["Content-Length", "100"]], body: undefined })[0]!;
    expect((await exchange(port, [head, r.body!], { abort: true })).answer).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = create(padded(100));
    expectAnswer(await send(next), next, [200, 201]);
  });

  it("waits for a slow body", async () => {
    const r = create(Buffer.from(JSON.stringify({ cadastral_reference: "2749704YJ0624N0001DI" })));
    const [head, body] = serialize(r);
    const bytes = [...body!].map((b) => Buffer.from([b]));
    const { answer } = await exchange(port, [head!, ...bytes], { pauseMs: 5 });
    expectAnswer(answer, r, [200, 201]);
  });
});

describe("lean server: targets, methods and hosts", () => {
  // Built in the test, once the key exists.
  const request = (method: string, target: string, host = "finca.test") => (): RawRequest => ({
    method,
    target,
    pathname: target.startsWith("/") ? pathnameOf(target) : new URL(target).pathname,
    headers: [["Host", host], ["Connection", "close"], ["X-API-Key", key]],
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
  ])("%s", async (_, build, statuses) => {
    const r = build();
    const answer = await send(r);
    expectAnswer(answer, r, statuses);
    if (answer!.status === 405) expect(answer!.headers.get("allow")).toBe("GET, POST, HEAD");
  });
});
