// The Upstash requester against a local HTTP server: what it sends, what it makes of each answer,
// one kept-alive connection for many hits, and a failure (not a hang) when nothing answers.
import type http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { listen, type LocalServer } from "@/test/support/receiver";
import { upstashRequester } from "./upstash-requester";

interface Seen {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  /** The requester's port: requests on one kept-alive connection share it. */
  remotePort?: number;
}

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A local server answering each request with `answer(seen, res)`, and what it was sent. */
async function serve(answer: (seen: Seen, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  server = await listen((req, body, res) => {
    const { method, url, headers } = req;
    const one = { method, url, headers, body: JSON.parse(body.toString()), remotePort: req.socket.remotePort };
    seen.push(one);
    answer(one, res);
  });
  return { url: `http://127.0.0.1:${server.port}`, seen };
}

const json = (res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(value));

describe("upstashRequester", () => {
  it("POSTs the command as JSON with the token, to the path, on one kept-alive connection", async () => {
    const at = await serve((_, res) => json(res, 200, { result: "OK" }));
    const requester = upstashRequester(at.url, "secret-token", 5000);
    expect(await requester.request({ body: ["SET", "k", "v"] })).toEqual({ result: "OK" });
    expect(await requester.request({ path: ["pipeline"], body: [["GET", "k"]] })).toEqual({ result: "OK" });
    expect(at.seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ["POST", "/", ["SET", "k", "v"]],
      ["POST", "/pipeline", [["GET", "k"]]],
    ]);
    expect(at.seen[0]!.headers.authorization).toBe("Bearer secret-token");
    expect(at.seen[0]!.headers["content-type"]).toBe("application/json");
    expect(new Set(at.seen.map((s) => s.remotePort)).size).toBe(1);
  });

  it("sends back the sync token the last answer carried (each command sees the writes before it)", async () => {
    let n = 0;
    const at = await serve((_, res) => json(res, 200, { result: n }, { "upstash-sync-token": `sync-${++n}` }));
    const requester = upstashRequester(at.url, "t", 5000);
    await requester.request({ body: ["INCR", "a"] });
    await requester.request({ body: ["INCR", "a"] });
    expect(at.seen.map((s) => s.headers["upstash-sync-token"])).toEqual([undefined, "sync-1"]);
  });

  it("throws an answer outside 2xx with its error, so that the limiter sees a NOSCRIPT", async () => {
    const at = await serve((_, res) => json(res, 400, { error: "NOSCRIPT No matching script." }));
    await expect(upstashRequester(at.url, "t", 5000).request({ body: ["EVALSHA", "abc", "0"] })).rejects.toThrow(
      /NOSCRIPT No matching script/,
    );
  });

  it("throws an answer that is not JSON, naming its status", async () => {
    const at = await serve((_, res) => res.writeHead(502).end("<html>bad gateway</html>"));
    await expect(upstashRequester(at.url, "t", 5000).request({ body: ["PING"] })).rejects.toThrow(
      /answered 502 with no JSON/,
    );
  });

  it("fails when an answer stops half-way, within its timeout", async () => {
    const at = await serve((_, res) => res.writeHead(200, { "Content-Type": "application/json" }).write('{"res'));
    await expect(upstashRequester(at.url, "t", 100).request({ body: ["PING"] })).rejects.toThrow(
      /did not answer within 100 ms/,
    );
  });

  it("fails when nothing answers within its timeout, and when nothing listens", async () => {
    const at = await serve(() => {});
    await expect(upstashRequester(at.url, "t", 100).request({ body: ["PING"] })).rejects.toThrow(
      /did not answer within 100 ms/,
    );
    await server!.down();
    await expect(upstashRequester(at.url, "t", 5000).request({ body: ["PING"] })).rejects.toThrow(/ECONNREFUSED/);
  });
});
