// `npm start`: builds when the build is missing or older than the sources, then serves portal + API
// + workers with server/main.ts (embedded PGlite in FINCA_DATA_DIR unless DATABASE_URL is set).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { buildWhenStale } from "./build.mjs";

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

await buildWhenStale(env).catch((error) => {
  console.error(`[finca] ${error.message}`);
  process.exit(1);
});

// Our server (server/main.ts: Next.js behind a front door for what Next cannot route), under this very node.
const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
