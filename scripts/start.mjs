// `npm start`: builds when the build is missing or older than the sources, then serves portal + API
// + workers with server/main.ts (the embedded PostgreSQL of FINCA_DATA_DIR unless DATABASE_URL is set).
// `npm run api` serves the partner API alone (scripts/serve-api.ts) and `npm run worker` runs a
// worker alone (scripts/worker.ts), both for deployments on PostgreSQL. Each runs compiled (build.mjs).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { buildWhenStale, compiledPath, compileServers, packSdk, SERVER_ENTRIES } from "./build.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
process.chdir(root);
const env = { ...process.env };
env.FINCA_DATA_DIR ??= path.join(root, ".data");
env.AUTH_TRUST_HOST ??= "true";
// No network here for telemetry; do not try.
env.NEXT_TELEMETRY_DISABLED ??= "1";

// Sessions need a secret; generate one per data folder so restarts keep users signed in.
if (!env.AUTH_SECRET) {
  mkdirSync(env.FINCA_DATA_DIR, { recursive: true });
  const file = path.join(env.FINCA_DATA_DIR, "auth-secret");
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  env.AUTH_SECRET = readFileSync(file, "utf8").trim();
}

const role = process.argv[2] ?? "main";
if (!Object.hasOwn(SERVER_ENTRIES, role)) {
  console.error(`[finca] no such process "${role}": ${Object.keys(SERVER_ENTRIES).join(", ")}`);
  process.exit(2);
}
// Only npm start's own server serves Next.js's build and the SDK's package.
await Promise.all([
  role === "main" ? buildWhenStale(env) : undefined,
  compileServers(),
  role === "main" ? packSdk() : undefined,
]).catch((error) => {
  console.error(`[finca] ${error.message}`);
  process.exit(1);
});

// The process (server/main.ts: Next.js behind a front door for what Next cannot route), under this very node.
const server = spawn(process.execPath, [compiledPath(SERVER_ENTRIES[role])], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => server.kill(signal));
// A server ended by a signal (the OOM killer's, a crash's) is no clean exit: 128 + the signal, as a shell says.
server.on("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
