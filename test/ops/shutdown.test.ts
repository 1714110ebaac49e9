// Graceful shutdown of the lean server, in the order server/lifecycle.ts runs it on SIGTERM:
// readiness fails at once; the server takes no new connection; a create in flight finishes and is
// answered; only then is the server stopped, and the App (workers, then database) closed after it.
import http from "node:http";
import { afterAll, expect, it } from "vitest";
import { count } from "drizzle-orm";
import { schema } from "@/lib/db";
import type { Sources } from "@/lib/enrichment/sources/types";
import { createPartnerApiServer } from "@/lib/partner-api/node-server";
import { countingServer } from "@/lib/http/counting-server";
import { findRequest } from "@/lib/request-logs";
import { stopHttpServer } from "@/server/lifecycle";
import { opsHandlers } from "@/server/ops";
import { createTestApp, newPartnerKey } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { eventually } from "../support/wait";

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => agent.destroy());

function request(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, agent }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** An App whose cadastre answers when the test says so (`release`); a create waits for it (deadline 60 s). */
async function heldCadastreApp(env: Record<string, string> = {}) {
  let release = () => {};
  const answered = new Promise<void>((resolve) => (release = resolve));
  const cadastre = { called: false, release: () => release() };
  const fake = fakeSources();
  const sources: Sources = {
    ...fake.test,
    cadastre: { lookup: async (input) => ((cadastre.called = true), await answered, fake.test.cadastre.lookup(input)) },
  };
  const t = await createTestApp({
    sources: { test: sources, live: sources },
    env: { ENRICHMENT_DEADLINE_MS: "60000", ...env },
  });
  return { t, cadastre };
}

it("fails readiness, refuses new connections, finishes the create in flight, then closes", async () => {
  const { t, cadastre } = await heldCadastreApp();
  const { release } = cadastre;
  const { key } = await newPartnerKey(t.app);
  const server = createPartnerApiServer(t.api, opsHandlers(t.app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  try {
    expect((await request(port, "GET", "/api/ready")).status).toBe(200);
    const create = request(
      port,
      "POST",
      "/api/v1/partner-api/properties",
      { "Content-Type": "application/json", "X-API-Key": key },
      JSON.stringify({ cadastral_reference: "2749704YJ0624N0001DI" }),
    );
    await eventually("the create reached the cadastre", () => cadastre.called);

    // SIGTERM: readiness fails first (asked on a connection of its own, the server still answers).
    t.app.beginShutdown();
    const ready = await new Promise<{ status: number; body: string }>((resolve, reject) =>
      http
        .get({ host: "127.0.0.1", port, path: "/api/ready", agent: false }, (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode!, body: text }));
        })
        .on("error", reject),
    );
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body).detail).toBe("Not ready: shutdown (the instance is shutting down).");

    let stopped = false;
    const stopping = stopHttpServer(server).then(() => (stopped = true));
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    expect(stopped).toBe(false); // the create is still in flight
    release();
    expect((await create).status).toBe(201);
    await stopping;
    expect(await t.app.db.select({ n: count() }).from(schema.properties)).toEqual([{ n: 1 }]);
  } finally {
    release();
    if (server.listening) server.close();
    await t.close();
  }
});

it("waits for a create whose client hung up: its property and request-log row are kept", async () => {
  const { t, cadastre } = await heldCadastreApp({ REQUEST_LOG_FLUSH_MS: "50" });
  const { release } = cadastre;
  const { key } = await newPartnerKey(t.app);
  const server = createPartnerApiServer(t.api, opsHandlers(t.app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const connections = () => new Promise<number>((resolve) => server.getConnections((_, n) => resolve(n)));
  try {
    const headers = { "Content-Type": "application/json", "X-API-Key": key, "X-Request-Id": "hung-up" };
    const path = "/api/v1/partner-api/properties";
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path, headers, agent: false });
    req.on("error", () => {});
    req.end(JSON.stringify({ cadastral_reference: "2749704YJ0624N0001DI" }));
    await eventually("the create reached the cadastre", () => cadastre.called);
    req.destroy();
    await eventually("its connection closed", async () => (await connections()) === 0);
    let stopped = false;
    const stopping = stopHttpServer(server).then(() => (stopped = true));
    // No connection is left; the handler is, waiting on the cadastre: the stop waits for it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await t.app.db.select({ n: count() }).from(schema.properties)).toEqual([{ n: 1 }]);
    await eventually("its request-log row written", async () => (await findRequest(t.app.db, "hung-up")).length === 1);
  } finally {
    release();
    if (server.listening) server.close();
    await t.close();
  }
});

it("is bounded: past it, connections are cut and a handler still running is no longer waited for", async () => {
  const server = countingServer((_req, res) => {
    res.writeHead(200).write("a stream that never ends");
    return new Promise(() => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const answered = new Promise<http.IncomingMessage>((resolve) =>
    http.get({ host: "127.0.0.1", port, path: "/", agent: false }, resolve).on("error", () => {}),
  );
  const res = await answered;
  const cut = new Promise((resolve) => res.on("close", resolve).resume());
  await stopHttpServer(server, 300);
  expect(server.listening).toBe(false);
  await cut;
});
