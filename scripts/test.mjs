// `npm test`: the layer order (dependency-cruiser), unit and integration tests (vitest), then the
// portal end-to-end tests (Playwright in Debian's Chromium), on the PostgreSQL server of DATABASE_URL,
// or else on one embedded PostgreSQL started here for both runners and stopped at the end
// (test/support/embedded-server.ts). Every process the run starts carries FINCA_TEST_RUN: any of
// them still running at the end (a server, a PostgreSQL, a browser) fails the run.
// Each runner is node itself running the package's own entry point (no npx wrapper between), in a
// process group of its own: a signal that stops `npm test` (Ctrl-C, a CI time limit) goes on to the
// whole group, so vitest's workers stop with it (alone, they would run their files to the end).
// If this process dies without passing it on, the runner's group stops itself, and so does each
// process a test started (test/support/exit-with-parent.mjs).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import "../test/support/exit-with-parent.mjs";

const GUARD = fileURLToPath(new URL("../test/support/exit-with-parent.mjs", import.meta.url));

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The command-line entry point a package declares (its `bin`; read from its folder: not every package exports its manifest). */
function entryPoint(pkg, name) {
  const folder = path.join(ROOT, "node_modules", pkg);
  const { bin } = JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8"));
  return path.join(folder, typeof bin === "string" ? bin : bin[name]);
}

let current = null;
let interrupted = false;
const signalGroup = (signal) => {
  try {
    process.kill(-current.pid, signal);
  } catch {
    // The group is gone already.
  }
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    interrupted = true;
    if (current) signalGroup(signal);
  });
}

function run(pkg, name, args) {
  console.log(`\n$ ${name} ${args.join(" ")}`);
  return new Promise((resolve) => {
    current = spawn(process.execPath, ["--import", GUARD, entryPoint(pkg, name), ...args], {
      stdio: "inherit",
      detached: true,
    });
    current.on("error", (error) => {
      console.error(`${name}: ${error.message}`);
      resolve(1);
    });
    current.on("exit", (code) => {
      // Whatever of its group outlived the runner (a browser, a stuck worker) goes with it.
      signalGroup("SIGKILL");
      resolve(code ?? 1);
    });
  });
}

const RUN = randomBytes(6).toString("hex");
process.env.FINCA_TEST_RUN = RUN;

/**
 * Processes of this run still running, `pid command`, other than this one and its own children (the
 * runners are gone by then: what is left is the esbuild service tsx's loader keeps here).
 */
function leftovers() {
  const found = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`FINCA_TEST_RUN=${RUN}`)) continue;
      // stat: "pid (name) state ppid …", the name possibly holding spaces and parentheses.
      const ppid = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1).split(" ")[1]);
      if (ppid === process.pid) continue;
      found.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").slice(0, 200)}`);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

const extra = process.argv.slice(2);
let failed = false;
let stopServer = async () => {};
if (!process.env.DATABASE_URL) {
  const { tsImport } = await import("tsx/esm/api");
  const { runServer } = await tsImport("../test/support/embedded-server.ts", import.meta.url);
  console.log("\n$ (an embedded PostgreSQL for this run: DATABASE_URL is unset)");
  stopServer = await runServer();
}
// The codebase's shape first (whole runs only): Biome's formatter and linter over the whole tree, the layer
// order of the README by dependency-cruiser, the SDK's own build.
if (!extra.length) {
  failed = (await run("@biomejs/biome", "biome", ["ci", "."])) !== 0;
  failed =
    (await run("dependency-cruiser", "depcruise", [
      "lib",
      "jobs",
      "server",
      "app",
      "packages",
      "--config",
      ".dependency-cruiser.cjs",
    ])) !== 0 || failed;
  // The SDK builds as its own package (its module resolution, not the app's).
  failed = (await run("typescript", "tsc", ["-p", "packages/sdk/tsconfig.json", "--noEmit"])) !== 0 || failed;
}
failed = (await run("vitest", "vitest", ["run", ...extra])) !== 0 || failed;
if (!interrupted && !process.env.FINCA_SKIP_E2E && !extra.length)
  failed = (await run("@playwright/test", "playwright", ["test"])) !== 0 || failed;
await stopServer();
// What stops on its own (a server whose parent went, a PostgreSQL finishing its shutdown) has seconds.
let left = leftovers();
for (let i = 0; i < 30 && left.length; i++) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  left = leftovers();
}
if (left.length) {
  console.error(`\nStill running after the tests (they must stop what they start):\n${left.join("\n")}`);
  failed = true;
}
process.exit(failed || interrupted ? 1 : 0);
