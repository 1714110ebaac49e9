// The production build, made when it is missing or older than the sources:
// - `next build`. One at a time per folder: `npm start`, tests and benchmarks may ask at once, and a
//   second build rewriting .next under a server that reads it breaks both; the others wait, then
//   find it fresh.
// - The server processes (`npm start`'s, the API alone, a worker) compiled to plain JavaScript in
//   .finca-server/ (esbuild; packages stay in node_modules). Run through tsx's loader instead, each
//   process kept 80 MiB more (the loader's own thread and its transforms) for nothing.
// - The SDK's package (packages/sdk, with its `finca` bin) as npm packs it, in .finca-sdk/ with a
//   manifest of its version and SHA-256: the portal serves it at /sdk/<file>, and partners install it
//   from there (the `@finca/sdk` name is not on the public registry).
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
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

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

const SDK = path.join(root, "packages", "sdk");
/** Where the SDK's package and its manifest are (server/sdk-package.ts reads them). */
export const SDK_OUT = path.join(root, ".finca-sdk");
const SDK_MANIFEST = path.join(SDK_OUT, "manifest.json");
// What goes into the package: the SDK, and the pure modules of lib/ its bin bundles.
const SDK_SOURCES = [
  "packages/sdk/src",
  "packages/sdk/package.json",
  "packages/sdk/README.md",
  "packages/sdk/tsconfig.json",
  "packages/sdk/build-cli.mjs",
  "lib/spreadsheets",
  "lib/cadastral-reference",
  "lib/enrichment/sources/sandbox.ts",
  "lib/enrichment/sources/types.ts",
  "package-lock.json",
  "tsconfig.json",
];

/** Runs a command; resolves with what it printed on stdout (its stderr goes to ours). */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"], ...options });
    const out = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.on("error", reject).on("exit", (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString("utf8"));
      else reject(new Error(`${path.basename(command)} failed (exit ${code}):\n${Buffer.concat(out)}`));
    });
  });
}

/**
 * Packs the SDK when its package is missing or older than its sources: its declarations and
 * JavaScript (tsc) and its bin (build-cli.mjs) in a staging folder beside its manifest, README and
 * package.json, packed by npm itself (fixed file times, so the same sources give the same bytes),
 * then the tarball and a manifest with its SHA-256 and npm's integrity moved into place.
 */
export async function packSdk() {
  const newest = Math.max(...SDK_SOURCES.map((s) => newestMtime(path.join(root, s))));
  if (existsSync(SDK_MANIFEST) && statSync(SDK_MANIFEST).mtimeMs >= newest) return;
  mkdirSync(SDK_OUT, { recursive: true });
  const work = mkdtempSync(path.join(SDK_OUT, ".tmp-"));
  try {
    const staging = path.join(work, "package");
    mkdirSync(staging);
    for (const file of ["package.json", "README.md"])
      writeFileSync(path.join(staging, file), readFileSync(path.join(SDK, file)));
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    await run(process.execPath, [tsc, "-p", path.join(SDK, "tsconfig.json"), "--outDir", path.join(staging, "dist")]);
    const { buildCli } = await import(pathToFileURL(path.join(SDK, "build-cli.mjs")).href);
    await buildCli(path.join(staging, "dist", "cli.mjs"));
    const packed = await run("npm", ["pack", staging, "--json", "--loglevel", "error", "--pack-destination", work], {
      cwd: work,
    });
    const [{ name, version, filename, integrity }] = JSON.parse(packed);
    const bytes = readFileSync(path.join(work, filename));
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    renameSync(path.join(work, filename), path.join(SDK_OUT, filename));
    const manifest = { name, version, file: filename, size: bytes.length, sha256, integrity };
    writeFileSync(path.join(work, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(path.join(work, "manifest.json"), SDK_MANIFEST);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The JavaScript to run for a script: a server entry point's compiled file (compiled when stale), or the script itself. */
export async function runnable(script) {
  if (!Object.values(SERVER_ENTRIES).includes(script)) return script;
  await compileServers();
  return compiledPath(script);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await Promise.all([buildWhenStale(), compileServers(), packSdk()]).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
