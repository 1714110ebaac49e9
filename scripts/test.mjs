// `npm test`: the layer order (dependency-cruiser), unit and integration tests (vitest), then the
// portal end-to-end tests (Playwright in Debian's Chromium). Runs on PGlite, or on PostgreSQL when
// DATABASE_URL is set.
// Each runner is node itself running the package's own entry point (no npx wrapper between), in a
// process group of its own: a signal that stops `npm test` (Ctrl-C, a CI time limit) goes on to the
// whole group, so vitest's workers stop with it (alone, they would run their files to the end).
// If this process dies without passing it on, the runner's group stops itself, and so does each
// process a test started (test/support/exit-with-parent.mjs).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
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

const extra = process.argv.slice(2);
let failed = false;
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
process.exit(failed || interrupted ? 1 : 0);
