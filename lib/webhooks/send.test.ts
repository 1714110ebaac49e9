import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import net from "node:net";
import { startReceiver, type Receiver } from "@/test/support/receiver";
import { sendWebhook, type SendOptions } from "./send";
import { urlProblem, type Resolver } from "@/lib/http/ssrf";

// Only loopback traffic: names are mapped to 127.0.0.1 by an injected resolver.
let receiver: Receiver;
let port: number;
beforeAll(async () => {
  receiver = await startReceiver();
  port = Number(new URL(receiver.url).port);
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.script();
});

const toLoopback: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
const options = (o: Partial<SendOptions> = {}): SendOptions => ({
  timeoutMs: 2000,
  allowPrivate: true,
  requireHttps: false,
  ...o,
});
const send = (url: string, o: Partial<SendOptions> = {}) =>
  sendWebhook(url, { "content-type": "application/json" }, '{"a":1}', options(o));

describe("sendWebhook", () => {
  it("posts the exact body and headers; 2xx is success", async () => {
    const result = await send(receiver.url);
    expect(result).toMatchObject({ ok: true, statusCode: 200, errorClass: null, responseBody: "ok" });
    expect(receiver.received[0]).toMatchObject({
      body: '{"a":1}',
      headers: { "content-type": "application/json", "content-length": "7" },
    });
  });

  it("checks the address it dials: a name resolving to a private address is refused before connecting", async () => {
    const url = `http://hooks.example:${port}/hooks`;
    // Creation accepts the name: only the connect-time check can catch what it resolves to (rebinding).
    expect(urlProblem(url, "test", false)).toBeNull();
    const blocked = await send(url, { allowPrivate: false, resolver: toLoopback });
    expect(blocked).toMatchObject({ ok: false, statusCode: null, errorClass: "ssrf_blocked" });
    expect(blocked.error).toBe("blocked: hooks.example resolves to a private or reserved address");
    expect(blocked.error).not.toContain("127.0.0.1");
    expect(receiver.received).toHaveLength(0);

    // The same request with the switch on goes through the same hook and arrives.
    expect(await send(url, { allowPrivate: true, resolver: toLoopback })).toMatchObject({ ok: true, statusCode: 200 });
    expect(receiver.received[0]!.headers.host).toBe(`hooks.example:${port}`);
  });

  it("keeps connections alive between attempts to the same receiver", async () => {
    for (let i = 0; i < 6; i++) expect(await send(receiver.url)).toMatchObject({ ok: true });
    // undici's pool may open a second connection while the first is finishing, never one per attempt.
    expect(new Set(receiver.received.map((r) => r.remotePort)).size).toBeLessThan(receiver.received.length);
  });

  it("never lends a connection made under a looser check: each attempt's address is checked", async () => {
    const url = `http://pooled.example:${port}/hooks`;
    expect(await send(url, { allowPrivate: true, resolver: toLoopback })).toMatchObject({ ok: true });
    // The same origin, a kept-alive socket to it open: the strict check still refuses the address.
    const blocked = await send(url, { allowPrivate: false, resolver: toLoopback });
    expect(blocked).toMatchObject({ ok: false, statusCode: null, errorClass: "ssrf_blocked" });
    expect(receiver.received).toHaveLength(1);
  });

  it("refuses literal private addresses (which never reach the lookup) and plain http when https is required", async () => {
    for (const url of [
      `http://127.0.0.1:${port}/hooks`,
      `http://[::ffff:127.0.0.1]:${port}/hooks`,
      `http://[::1]:${port}/hooks`,
    ]) {
      expect(await send(url, { allowPrivate: false })).toMatchObject({ errorClass: "ssrf_blocked", statusCode: null });
    }
    expect(await send(receiver.url, { requireHttps: true })).toMatchObject({
      errorClass: "ssrf_blocked",
      error: "live endpoints must use https",
    });
    expect(receiver.received).toHaveLength(0);
  });

  it("does not follow redirects: a 3xx is a failure", async () => {
    receiver.script({ status: 302, headers: { Location: `${receiver.url}/elsewhere` } });
    expect(await send(receiver.url)).toMatchObject({
      ok: false,
      statusCode: 302,
      errorClass: "http_status",
      error: "HTTP 302 (redirects are not followed)",
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received).toHaveLength(1);
  });

  it("keeps only the first KiB of the answer, as storable text", async () => {
    receiver.script({ status: 500, body: "é".repeat(300_000) }, { status: 500, body: "a\u0000b" });
    const large = await send(receiver.url);
    expect(large.responseBody).toBe("é".repeat(512)); // 1024 bytes
    expect(large.durationMs).toBeLessThan(1000);
    expect((await send(receiver.url)).responseBody).toBe("a\uFFFDb");
  });

  it("reads Retry-After as seconds or an HTTP date", async () => {
    receiver.script(
      { status: 429, headers: { "Retry-After": "7" } },
      { status: 503, headers: { "Retry-After": new Date(Date.now() + 30_000).toUTCString() } },
    );
    expect((await send(receiver.url)).retryAfterSeconds).toBe(7);
    expect((await send(receiver.url)).retryAfterSeconds).toBeGreaterThanOrEqual(28);
  });

  it("classifies failures: timeout, refused, dns, tls", async () => {
    receiver.script({ hangMs: 1500 });
    const slow = await send(receiver.url, { timeoutMs: 200 });
    expect(slow).toMatchObject({ errorClass: "timeout", statusCode: null });
    expect(slow.durationMs).toBeGreaterThanOrEqual(190);
    expect(slow.durationMs).toBeLessThan(1000);

    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    expect(await send(`http://127.0.0.1:${closed}/hooks`)).toMatchObject({ errorClass: "refused" });
    expect(await send(`http://nowhere.example:${port}/hooks`, { resolver: async () => [] })).toMatchObject({
      errorClass: "dns",
    });
    // TLS spoken to a plain-HTTP server fails the handshake.
    expect(await send(`https://127.0.0.1:${port}/hooks`)).toMatchObject({ errorClass: "tls" });
  });
});
