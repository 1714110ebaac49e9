// The server the Playwright tests run against: the real `npm start`, on a fresh database of the
// PostgreSQL server in DATABASE_URL (npm test's), or else on a fresh data folder (its own embedded
// PostgreSQL); removed on exit.
// Should Playwright die without stopping it, it stops itself the same way (exit-with-parent).
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import "../test/support/exit-with-parent.mjs";

const env = {
  ...process.env,
  AUTH_SECRET: "e2e-secret-not-for-production-0123456789",
  AUTH_TRUST_HOST: "true",
  FINCA_ADMIN_EMAIL: "admin@finca.test",
  FINCA_ADMIN_PASSWORD: "admin-password-e2e",
  FINCA_WEBHOOKS_ALLOW_PRIVATE: "1",
  ENRICHMENT_RETRY_SCHEDULE_TEST: "3,2,4",
  WEBHOOK_RETRY_SCHEDULE_TEST: "1,1",
  JOB_POLL_SECONDS: "0.5",
  // La Rioja's register dataset, served by the admin test on the next port.
  REGISTER_URLS: `rio-larioja=http://127.0.0.1:${Number(process.env.PORT) + 1}/rio-larioja.csv`,
  // That replay server is plain http on loopback: what production refuses.
  FINCA_REGISTERS_ALLOW_PRIVATE: "1",
  // Live mode's cadastre refuses connections (there is no internet here anyway): the admin console's
  // Registers page shows its breaker open.
  CATASTRO_BASE_URL: "http://127.0.0.1:3",
};

let cleanup = () => {};
if (process.env.DATABASE_URL) {
  const name = `finca_e2e_${Date.now()}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  cleanup = async () => {
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
} else {
  const dir = mkdtempSync(path.join(tmpdir(), "finca-e2e-"));
  env.FINCA_DATA_DIR = dir;
  cleanup = async () => rmSync(dir, { recursive: true, force: true });
}

// What the server prints goes on to Playwright and, when asked, to a file the tests read.
const server = spawn(process.execPath, ["scripts/start.mjs"], { stdio: ["ignore", "pipe", "pipe"], env });
const copy = process.env.FINCA_E2E_SERVER_LOG ? createWriteStream(process.env.FINCA_E2E_SERVER_LOG) : null;
for (const [from, to] of [
  [server.stdout, process.stdout],
  [server.stderr, process.stderr],
]) {
  from.on("data", (chunk) => {
    to.write(chunk);
    copy?.write(chunk);
  });
}
const stop = (signal) => server.kill(signal);
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
server.on("exit", async (code) => {
  await cleanup().catch(() => {});
  process.exit(code ?? 0);
});
