// `npm start`'s front door (server/http.ts): every request under the API's base path reaches the
// partner API's own listener, with the real handlers on a real database, and only the rest reaches
// Next.js (stood in for here by a listener that says it was asked; test/api/fuzz-next.test.ts runs
// the whole product server).
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partnerApiListener } from "@/lib/partner-api/node-server";
import { frontDoor } from "@/server/http";
import { requestSignal } from "@/server/request-signal";
import { FRONT_DOOR } from "@/lib/auth/throttle";
import { useTestApp, type TestApp } from "../support/app";
import { BASE_PATH } from "../support/contract";
import { fakeSources } from "../support/fake-sources";
import { exchange } from "../support/raw-http";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

const TOKEN = "front-door-token";
/** Next.js's stand-in: answers 299 with the URL it was given, and the address the front door vouched for. */
const NEXT_STATUS = 299;
let server: http.Server;
let port: number;
beforeAll(async () => {
  const next: http.RequestListener = (req, res) =>
    res
      .writeHead(NEXT_STATUS, {
        "Content-Type": "text/plain",
        "X-Seen-Address": `${req.headers[FRONT_DOOR.address]} ${req.headers[FRONT_DOOR.token]}`,
      })
      .end(req.url);
  server = http.createServer(frontDoor(next, partnerApiListener(t.api), TOKEN));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function ask(method: string, target: string, body?: string) {
  const headers = [`Host: finca.test`, "Connection: close", `X-API-Key: ${key}`];
  if (body) headers.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`);
  const { answer } = await exchange(port, [
    `${method} ${target} HTTP/1.1\r\n${headers.join("\r\n")}\r\n\r\n${body ?? ""}`,
  ]);
  expect(answer, `no answer to ${method} ${target}`).not.toBeNull();
  return answer!;
}

describe("the API's paths reach the API's own listener", () => {
  it.each([
    ["GET", `${BASE_PATH}/openapi.json`, 200],
    ["GET", `${BASE_PATH}/properties`, 200],
    ["GET", `${BASE_PATH}/properties?limit=1`, 200],
    ["GET", `${BASE_PATH}/properties/`, 200],
    ["GET", BASE_PATH, 404],
    ["GET", `${BASE_PATH}/nothing`, 404],
    ["PUT", `${BASE_PATH}/properties`, 405],
    ["TRACE", `${BASE_PATH}/properties`, 405],
    ["GET", `${BASE_PATH}/properties/%E0%A4%A`, 404],
    ["GET", `http://elsewhere.example${BASE_PATH}/openapi.json`, 200],
    ["OPTIONS", "*", 404],
    // Doubled slashes: the API's own answer (a problem with X-Request-Id), never Next's 308.
    ["GET", `${BASE_PATH}//properties`, 404],
    ["GET", `/api//v1/partner-api/properties`, 404],
    ["GET", `//api/v1/partner-api/openapi.json`, 404],
  ])("%s %s → %i from the API", async (method, target, status) => {
    const answer = await ask(method, target);
    expect(answer.status, answer.body).toBe(status);
    expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    if (status >= 400) expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("creates through it", async () => {
    const answer = await ask(
      "POST",
      `${BASE_PATH}/properties`,
      JSON.stringify({ cadastral_reference: "2749704YJ0624N0001DI" }),
    );
    expect(answer.status, answer.body).toBe(201);
    expect(answer.headers.get("ratelimit-policy")).toBe('"writes";q=100;w=60');
  });
});

describe("the API listener's own failure", () => {
  it("is a 500 problem that echoes the client's X-Request-Id", async () => {
    const failing = partnerApiListener(t.api, {
      "/boom": () => Promise.reject(new Error("an extra route failed")),
    });
    const door = http.createServer(failing);
    await new Promise<void>((resolve) => door.listen(0, "127.0.0.1", resolve));
    try {
      const { answer } = await exchange((door.address() as AddressInfo).port, [
        "GET /boom HTTP/1.1\r\nHost: finca.test\r\nConnection: close\r\nX-Request-Id: client-chosen-17\r\n\r\n",
      ]);
      expect(answer!.status).toBe(500);
      expect(answer!.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(answer!.headers.get("x-request-id")).toBe("client-chosen-17");
      expect(JSON.parse(answer!.body)).toMatchObject({ status: 500, request_id: "client-chosen-17" });
    } finally {
      await new Promise<void>((resolve) => door.close(() => resolve()));
    }
  });
});

describe("everything else reaches Next.js", () => {
  it.each([["/"], ["/docs"], ["/api/health"], ["/api/v1/partner-apix"], ["/api/v1"], ["/dashboard?x=1"]])(
    "GET %s",
    async (target) => {
      const answer = await ask("GET", target);
      expect(answer.status).toBe(NEXT_STATUS);
      expect(answer.body).toBe(target);
    },
  );

  it("with the socket's address, vouched for by the process's token: a client's own copies are replaced", async () => {
    const { answer } = await exchange(port, [
      `GET /account HTTP/1.1\r\nHost: finca.test\r\nConnection: close\r\n${FRONT_DOOR.address}: 203.0.113.9\r\n${FRONT_DOOR.token}: guessed\r\n\r\n`,
    ]);
    expect(answer!.headers.get("x-seen-address")).toBe(`127.0.0.1 ${TOKEN}`);
  });

  it("a page's absolute-form target as its path", async () => {
    const answer = await ask("GET", "http://elsewhere.example/docs?a=1");
    expect([answer.status, answer.body]).toEqual([NEXT_STATUS, "/docs?a=1"]);
  });

  it("refuses what Next cannot answer: a page path not percent-encoded, a method it has no route for", async () => {
    expect((await ask("GET", "/docs/%E0%A4%A")).status).toBe(400);
    const trace = await ask("TRACE", "/docs");
    expect([trace.status, trace.headers.get("allow")]).toEqual([405, "GET, HEAD, POST"]);
  });
});

describe("a request Next.js serves carries a signal that aborts when its client goes", () => {
  it("aborts when the client closes before the answer, and not once it was answered", async () => {
    const seen: { aborted: Promise<unknown>; signal: AbortSignal }[] = [];
    // Next.js's stand-in answers `/answered` at once, and `/slow` never (as a workbook being read).
    const next: http.RequestListener = async (req, res) => {
      await new Promise((r) => setImmediate(r));
      const signal = requestSignal()!;
      seen.push({ signal, aborted: new Promise((resolve) => signal.addEventListener("abort", resolve)) });
      if (req.url === "/answered") res.end("ok");
    };
    const door = http.createServer(frontDoor(next, partnerApiListener(t.api), TOKEN));
    await new Promise<void>((resolve) => door.listen(0, "127.0.0.1", resolve));
    const at = (door.address() as AddressInfo).port;
    try {
      expect((await fetch(`http://127.0.0.1:${at}/answered`)).status).toBe(200);
      const socket = net.connect(at, "127.0.0.1");
      socket.write("GET /slow HTTP/1.1\r\nHost: finca.test\r\n\r\n");
      while (seen.length < 2) await new Promise((r) => setTimeout(r, 10));
      expect(seen[1]!.signal.aborted).toBe(false);
      socket.destroy();
      await seen[1]!.aborted;
      expect(seen[1]!.signal.reason).toMatchObject({ message: "the client went away" });
      expect(seen[0]!.signal.aborted).toBe(false);
      // Outside a request there is none.
      expect(requestSignal()).toBeUndefined();
    } finally {
      door.closeAllConnections();
      await new Promise<void>((resolve) => door.close(() => resolve()));
    }
  });
});
