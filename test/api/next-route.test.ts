// Next.js alone (`next start`, as a platform hosting the app runs it): the partner API answers
// through the catch-all route (app/api/v1/partner-api/[[...path]]/route.ts → server/partner-api.ts),
// the same operations table as `npm start`'s own listener. Malformed targets are `npm start`'s
// business (its front door); here the contract's answers to well-formed requests.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { generateApiKey } from "@/lib/api-keys";
import { BASE_PATH } from "../support/contract";
import { createPostgresDatabase } from "../support/database";
import { freePort } from "../support/ports";
import { runNode, startNode, stopGroup } from "../support/processes";
import { eventually } from "../support/wait";

// A build on two busy cores takes minutes; a server that is not up after ten never will be.
const START_MS = 600_000;
const key = generateApiKey("test");

let server: ChildProcess | undefined;
let base: string;
let cleanup = async () => {};
beforeAll(async () => {
  const build = await runNode("scripts/build.mjs", [], { timeoutMs: START_MS });
  expect(build.code, build.stderr).toBe(0);
  const port = await freePort();
  base = `http://127.0.0.1:${port}${BASE_PATH}`;
  const env: Record<string, string> = {
    PORT: String(port),
    FINCA_SEED_API_KEY: key,
    AUTH_SECRET: "next-route-test",
    AUTH_TRUST_HOST: "true",
    LOG_LEVEL: "warn",
  };
  const created = await createPostgresDatabase(process.env.DATABASE_URL!, "finca_next");
  env.DATABASE_URL = created.url;
  cleanup = created.drop;
  server = startNode("node_modules/next/dist/bin/next", ["start", "-p", String(port)], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  await eventually("next start answers", async () => (await fetch(`${base}/openapi.json`).catch(() => null))?.ok, {
    timeoutMs: START_MS,
    intervalMs: 500,
  });
}, 2 * START_MS);
afterAll(async () => {
  if (server) await stopGroup(server);
  await cleanup();
});

const send = (method: string, rest: string, body?: string, headers: Record<string, string> = { "X-API-Key": key }) =>
  fetch(`${base}${rest}`, {
    method,
    body,
    headers: body ? { ...headers, "Content-Type": "application/json" } : headers,
    redirect: "manual",
  });

async function problem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(await res.json()).toMatchObject({ status, code, request_id: res.headers.get("x-request-id") });
}

it("creates, repeats and reads a property through the catch-all route", async () => {
  const body = JSON.stringify({ cadastral_reference: "2749704YJ0624N0001DI" });
  const created = await send("POST", "/properties", body, { "X-API-Key": key, "X-Request-Id": "next-route-1" });
  expect(created.status).toBe(201);
  expect(created.headers.get("x-request-id")).toBe("next-route-1");
  expect(created.headers.get("ratelimit-policy")).toBe('"writes";q=100;w=60');
  const { property_id: id } = (await created.json()) as { property_id: string };
  expect(created.headers.get("location")).toBe(`${BASE_PATH}/properties/${id}`);
  expect((await send("POST", "/properties", body)).status).toBe(200);
  expect((await send("GET", `/properties/${id}`)).status).toBe(200);
  const list = (await (await send("GET", "/properties")).json()) as { data: { property_id: string }[] };
  expect(list.data.map((p) => p.property_id)).toEqual([id]);
});

it("answers the contract's errors as problem+json with X-Request-Id", async () => {
  await problem(await send("POST", "/properties", "{}", {}), 401, "missing_api_key");
  await problem(await send("POST", "/properties", "{"), 422, "validation_error");
  await problem(
    await send("POST", "/properties", JSON.stringify({ cadastral_reference: "nope" })),
    400,
    "invalid_cadastral_reference",
  );
  await problem(await send("GET", "/nothing"), 404, "not_found");
  const put = await send("PUT", "/properties");
  expect(put.headers.get("allow")).toBe("GET, POST, HEAD");
  await problem(put, 405, "method_not_allowed");
});
