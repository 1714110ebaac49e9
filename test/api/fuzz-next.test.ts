// The HTTP fuzz (test/support/http-fuzz.ts) against `next start`, the product's own server: Next
// decodes paths and routes methods before the API sees a request (proxy.ts hands it what Next
// cannot route), so the lean server's answers alone prove nothing about it. Runs the built app
// (scripts/e2e-server.mjs: `npm start` on a fresh database, built first when the build is stale).
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll } from "vitest";
import { generateApiKey } from "@/lib/api-keys";
import { BASE_PATH } from "../support/contract";
import { describeHttpFuzz } from "../support/http-fuzz";
import { freePort } from "../support/ports";
import { startNode, stopGroup } from "../support/processes";
import { eventually } from "../support/wait";

// A build on two busy cores takes minutes; a server that is not up after ten never will be.
const START_MS = 600_000;

let server: ChildProcess;
let port: number;
const key = generateApiKey("test");

beforeAll(async () => {
  port = await freePort();
  // The fuzz makes more writes than the rate limit allows; 429 has its own tests.
  server = startNode("scripts/e2e-server.mjs", [], {
    env: { PORT: String(port), FINCA_SEED_API_KEY: key, RATE_LIMIT_WRITES: "1000000" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await eventually(
    "next start answers",
    async () => (await fetch(`http://127.0.0.1:${port}${BASE_PATH}/openapi.json`).catch(() => null))?.ok,
    { timeoutMs: START_MS, intervalMs: 500 },
  );
}, START_MS + 60_000);
afterAll(() => stopGroup(server));

describeHttpFuzz("next start", () => ({ port, key, oneWrite: true }), { wellFormed: 100, valid: 30, broken: 40 });
