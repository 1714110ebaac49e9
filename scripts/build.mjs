// The production build, made when it is missing or older than the sources:
// - `next build`. One at a time per folder: `npm start`, tests and benchmarks may ask at once, and a
//   second build rewriting .next under a server that reads it breaks both; the others wait, then
//   find it fresh.
// - The server processes (`npm start`'s, the API alone, a worker) compiled to plain JavaScript in
//   .finca-server/ (esbuild; packages stay in node_modules). Run through tsx's loader instead, each
//   process kept 80 MiB more (the loader's own thread and its transforms) for nothing.
//   node scripts/build.mjs      (what scripts/start.mjs does first; tests and bench/create run it too)
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = [
  "app",
  "lib",
  "server",
  "jobs",
  "drizzle",
  "public",
  "instrumentation.ts",
  "next.config.mjs",
  "package-lock.json",
  "postcss.config.mjs",
];
const BUILD_ID = path.join(root, ".next", "BUILD_ID");
const LOCK = path.join(root, ".next-build.lock");
// A lock without its holder's pid yet is being taken; older than this, its taker died first.
const TAKING_MS = 10_000;

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

const stale = () =>
  !existsSync(BUILD_ID) ||
  Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s)))) > statSync(BUILD_ID).mtimeMs;

/** Whether the lock's holder still runs. */
function held() {
  let pid;
  try {
    pid = Number(readFileSync(path.join(LOCK, "pid"), "utf8"));
  } catch {
    try {
      return Date.now() - statSync(LOCK).mtimeMs < TAKING_MS;
    } catch {
      return false; // released meanwhile
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Next's own binary under this very node (not through npx), so signals reach the build itself. */
function nextBuild(env) {
  const next = createRequire(import.meta.url).resolve("next/dist/bin/next");
  return new Promise((resolve) =>
    spawn(process.execPath, [next, "build"], { cwd: root, stdio: "inherit", env }).on("exit", (code) =>
      resolve(code ?? 1),
    ),
  );
}

/** Builds when the build is missing or stale; resolves once a fresh build is there. */
export async function buildWhenStale(env = process.env) {
  while (stale()) {
    try {
      mkdirSync(LOCK);
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      if (!held()) rmSync(LOCK, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    try {
      writeFileSync(path.join(LOCK, "pid"), String(process.pid));
      // Another process may have finished a build while this one waited.
      if (!stale()) return;
      console.log("[finca] building (first start or sources changed)…");
      const code = await nextBuild(env);
      if (code !== 0) throw new Error(`next build failed (exit ${code})`);
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

/** The server processes by role: what `node scripts/start.mjs [role]` runs. */
export const SERVER_ENTRIES = { main: "server/main.ts", api: "scripts/serve-api.ts", worker: "scripts/worker.ts" };
const SERVER_OUT = path.join(root, ".finca-server");
const SERVER_SOURCES = [
  "lib",
  "server",
  "jobs",
  ...Object.values(SERVER_ENTRIES),
  "package-lock.json",
  "tsconfig.json",
];

/** Where an entry point's compiled JavaScript is (`scripts/worker.ts` → .finca-server/scripts/worker.mjs). */
export const compiledPath = (entry) => path.join(SERVER_OUT, entry.replace(/\.ts$/, ".mjs"));

/**
 * Compiles the server entry points when one is missing or older than the sources. Written beside
 * and renamed into place, so processes asking at once never see half a file (and agree on it).
 */
export async function compileServers() {
  const entries = Object.values(SERVER_ENTRIES);
  const newest = Math.max(...SERVER_SOURCES.map((s) => newestMtime(path.join(root, s))));
  const fresh = (entry) => existsSync(compiledPath(entry)) && statSync(compiledPath(entry)).mtimeMs >= newest;
  if (entries.every(fresh)) return;
  const { build } = await import("esbuild");
  mkdirSync(SERVER_OUT, { recursive: true });
  const out = mkdtempSync(path.join(SERVER_OUT, ".tmp-"));
  try {
    await build({
      absWorkingDir: root,
      entryPoints: entries,
      outbase: root,
      outdir: out,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      packages: "external",
      platform: "node",
      format: "esm",
      target: "node20",
      // Error classes keep their names: logs report them (`errorClass`).
      keepNames: true,
      sourcemap: "linked",
      logLevel: "warning",
    });
    for (const entry of entries) {
      const file = compiledPath(entry);
      mkdirSync(path.dirname(file), { recursive: true });
      renameSync(`${path.join(out, entry.replace(/\.ts$/, ".mjs"))}.map`, `${file}.map`);
      renameSync(path.join(out, entry.replace(/\.ts$/, ".mjs")), file);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The JavaScript to run for a script: a server entry point's compiled file (compiled when stale), or the script itself. */
export async function runnable(script) {
  if (!Object.values(SERVER_ENTRIES).includes(script)) return script;
  await compileServers();
  return compiledPath(script);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await Promise.all([buildWhenStale(), compileServers()]).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
