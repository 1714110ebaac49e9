// Property-based fuzzing of the lean node:http server (lib/partner-api/node-server.ts) over raw
// sockets (test/support/http-fuzz.ts; the same runs against `next start` in fuzz-next.test.ts),
// and what only the lean server's own body reading must do: caps, bodies that never end, aborted
// and slow bodies.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { BASE_PATH } from "../support/contract";
import { exchange } from "../support/raw-http";
import { describeHttpFuzz, expectAnswer, openApiRequest, send, serialize, type RawRequest } from "../support/http-fuzz";
import { createLogger } from "@/lib/observability/logger";
import { createPartnerApiServer } from "@/lib/partner-api/node-server";
import { MAX_BODY_BYTES } from "@/lib/partner-api/request";

let t: TestApp;
let key: string;
// The fuzz makes more writes than the rate limit allows; 429 has its own tests.
// Error lines of the App's logger, kept to check after each test.
const errorLines: { msg: string }[] = [];
const logger = createLogger({
  level: "error",
  format: "json",
  destination: { write: (line: string) => void errorLines.push(JSON.parse(line)) },
});
useTestApp({ sources: fakeSources(), env: { RATE_LIMIT_WRITES: "1000000" }, logger }, (ctx) => ({ t, key } = ctx));

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
afterEach(() => {
  expect(errorLines.splice(0).map((line) => line.msg)).toEqual([]);
});

describeHttpFuzz("lean server", () => ({ port, key }));

describe("lean server: bodies", () => {
  const create = (body?: Buffer, chunks?: number[]): RawRequest => ({
    method: "POST",
    target: `${BASE_PATH}/properties`,
    pathname: `${BASE_PATH}/properties`,
    headers: [
      ["Host", "x"],
      ["X-API-Key", key],
      ["Content-Type", "application/json"],
      ["Connection", "close"],
    ],
    body,
    chunks,
  });
  const padded = (size: number) =>
    Buffer.from(JSON.stringify({ cadastral_reference: "2749704YJ0624N0001DI" }).padEnd(size, " "));

  it.each([
    ["Content-Length", undefined],
    ["chunked", [4096]],
  ])("caps the body at 16 KiB (%s): at the cap it succeeds, one byte over is a 422", async (_, chunks) => {
    expectAnswer(await send(port, create(padded(MAX_BODY_BYTES), chunks)), create(), [200, 201]);
    const over = await send(port, create(padded(MAX_BODY_BYTES + 1), chunks));
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
    const kept = await send(port, { ...fits, headers: fits.headers.filter(([n]) => n !== "Connection") });
    expectAnswer(kept, fits, [200, 201]);
    expect(kept!.headers.get("connection")).not.toBe("close");
  });

  it("answers once a body it did not need has ended: closing while the client sends resets the answer", async () => {
    const r = openApiRequest({ body: Buffer.alloc(40, 0x20), chunks: [1] });
    const parts = serialize(r);
    const { answer, written } = await exchange(port, parts, { pauseMs: 5 });
    expectAnswer(answer, r, [200]);
    // Sending stops once the answer is complete: the whole body went first.
    expect(written).toBe(Buffer.concat(parts.map((part) => Buffer.from(part))).length);
  });

  it("invalid UTF-8 is a 422", async () => {
    const r = create(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d]));
    expectAnswer(await send(port, r), r, [422]);
  });

  it("survives a client that aborts mid-body, and serves the next request", async () => {
    const r = create(Buffer.from('{"cadastral_reference":"2749'));
    const head = serialize({ ...r, headers: [...r.headers, ["Content-Length", "100"]], body: undefined })[0]!;
    expect((await exchange(port, [head, r.body!], { abort: true })).answer).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = create(padded(100));
    expectAnswer(await send(port, next), next, [200, 201]);
  });

  it("waits for a slow body", async () => {
    const r = create(Buffer.from(JSON.stringify({ cadastral_reference: "2749704YJ0624N0001DI" })));
    const [head, body] = serialize(r);
    const bytes = [...body!].map((b) => Buffer.from([b]));
    const { answer } = await exchange(port, [head!, ...bytes], { pauseMs: 5 });
    expectAnswer(answer, r, [200, 201]);
  });
});
