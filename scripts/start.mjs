// `npm start`: builds when the build is missing or older than the sources, then serves portal + API
// + workers with server/main.ts (embedded PGlite in FINCA_DATA_DIR unless DATABASE_URL is set).
import { spawnSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";

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

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

// Next's own binary under this very node (not through npx), so signals reach the server itself.
const next = createRequire(import.meta.url).resolve("next/dist/bin/next");
const buildId = path.join(root, ".next", "BUILD_ID");
const sources = ["app", "lib", "server", "jobs", "drizzle", "public", "instrumentation.ts", "next.config.mjs", "package-lock.json", "postcss.config.mjs"];
if (!existsSync(buildId) || Math.max(...sources.map(newestMtime)) > statSync(buildId).mtimeMs) {
  console.log("[finca] building (first start or sources changed)…");
  const build = spawnSync(process.execPath, [next, "build"], { stdio: "inherit", env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Our server (server/main.ts: Next.js behind a front door for what Next cannot route), under this very node.
const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
