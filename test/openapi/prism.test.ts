// The contract run once through Prism as a validating proxy (`prism proxy … --errors`): every
// operation, with the answers a partner gets (200, 201, 204, 400, 404, 429), goes through Prism to
// the lean server, and Prism finds no violation of the OpenAPI document in any request or response.
// Requests the document itself forbids (no key, an unknown field) are refused by Prism as the
// server refuses them: the document states the rules the server applies.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPartnerApiServer } from "@/lib/partner-api/node-server";
import { createTestApp, newPartnerKey, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { freePort } from "../support/ports";
import { startNode, stopGroup } from "../support/processes";
import { eventually } from "../support/wait";
import { binOf, ROOT, writeOpenApiFile } from "../support/openapi-file";
import type { ChildProcess } from "node:child_process";

// The writes below (three creates, an endpoint added, updated twice and deleted twice) fill the
// window exactly.
const WRITES = 8;
let t: TestApp;
let server: Server;
let prism: ChildProcess;
let prismLog = "";
let direct = "";
let proxied = "";
let key = "";

beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources(), env: { RATE_LIMIT_WRITES: String(WRITES) } });
  key = (await newPartnerKey(t.app)).key;
  server = createPartnerApiServer(t.api);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  direct = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/partner-api`;
  const port = await freePort();
  prism = startNode(
    await binOf("@stoplight/prism-cli", "prism"),
    ["proxy", writeOpenApiFile("prism.json"), direct, "--errors", "--host", "127.0.0.1", "--port", String(port)],
    { cwd: ROOT },
  );
  prism.stdout!.on("data", (chunk) => (prismLog += chunk));
  prism.stderr!.on("data", (chunk) => (prismLog += chunk));
  proxied = `http://127.0.0.1:${port}`;
  await eventually("Prism listening", () =>
    fetch(`${proxied}/openapi.json`).then(
      (r) => r.ok,
      () => false,
    ),
  );
}, 180_000);
afterAll(async () => {
  await stopGroup(prism);
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

type Call = { method?: string; path: string; body?: unknown; headers?: Record<string, string> };
const call = (base: string, c: Call) =>
  fetch(`${base}${c.path}`, {
    method: c.method ?? "GET",
    headers: { ...(c.body ? { "Content-Type": "application/json" } : {}), ...c.headers },
    body: c.body ? JSON.stringify(c.body) : undefined,
  });

/** Through Prism: the server's own answer (not one of Prism's errors), with the status expected. */
async function through(c: Call, status: number) {
  const res = await call(proxied, c);
  const body = await res.text();
  expect(
    body,
    `${c.method ?? "GET"} ${c.path}: Prism said ${body.slice(0, 500)}\n${prismLog.slice(-2000)}`,
  ).not.toContain("stoplight.io/prism/errors");
  expect(res.status, body.slice(0, 300)).toBe(status);
  expect(res.headers.get("x-request-id")).toMatch(/\S/);
  return body ? JSON.parse(body) : null;
}

const auth = () => ({ "X-API-Key": key });
const REFERENCE = "2749704YJ0624N0001DI";

it("every operation's answers pass Prism's validation of request and response", async () => {
  const created = await through(
    { method: "POST", path: "/properties", body: { cadastral_reference: REFERENCE }, headers: auth() },
    201,
  );
  await through(
    { method: "POST", path: "/properties", body: { cadastral_reference: REFERENCE }, headers: auth() },
    200,
  );
  await through(
    { method: "POST", path: "/properties", body: { cadastral_reference: "2749704YJ0624N0001DX" }, headers: auth() },
    400,
  );
  await through({ path: `/properties/${created.property_id}`, headers: auth() }, 200);
  await through({ path: "/properties/00000000-0000-4000-8000-000000000000", headers: auth() }, 404);
  await through({ path: "/properties/not-an-id", headers: auth() }, 404);
  await through({ path: "/properties?limit=1&status=enriched", headers: auth() }, 200);
  await through({ path: "/webhook-endpoints", headers: auth() }, 200);
  const endpoint = await through(
    { method: "POST", path: "/webhook-endpoints", body: { url: "https://hooks.example.com/finca" }, headers: auth() },
    201,
  );
  const update = { url: "https://hooks.example.com/moved", description: null, event_types: ["batch.completed"] };
  await through({ method: "PATCH", path: `/webhook-endpoints/${endpoint.id}`, body: update, headers: auth() }, 200);
  await through({ method: "DELETE", path: `/webhook-endpoints/${endpoint.id}`, headers: auth() }, 204);
  await through({ method: "DELETE", path: `/webhook-endpoints/${endpoint.id}`, headers: auth() }, 404);
  await through({ method: "PATCH", path: `/webhook-endpoints/${endpoint.id}`, body: update, headers: auth() }, 404);
  await through({ path: "/coverage", headers: auth() }, 200);
  await through({ path: "/openapi.json" }, 200);
  // The window's writes are spent (every write above counted): the next is a 429.
  await through(
    { method: "POST", path: "/properties", body: { cadastral_reference: REFERENCE }, headers: auth() },
    429,
  );
}, 180_000);

it("what the document forbids, Prism refuses as the server does", async () => {
  key = (await newPartnerKey(t.app)).key; // the first key's writes are spent
  for (const [c, status] of [
    [{ path: "/properties" }, 401],
    [{ method: "POST", path: "/properties", body: { cadastral_reference: REFERENCE, extra: 1 }, headers: auth() }, 422],
    [{ path: "/properties?limit=0", headers: auth() }, 422],
    [
      { method: "PATCH", path: "/webhook-endpoints/00000000-0000-4000-8000-000000000000", body: {}, headers: auth() },
      422,
    ],
  ] as const) {
    const [viaPrism, viaServer] = [await call(proxied, c), await call(direct, c)];
    expect(viaServer.status).toBe(status);
    expect(viaPrism.status, await viaPrism.text()).toBe(status);
  }
}, 120_000);
