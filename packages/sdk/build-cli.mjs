// The `finca` bin of @finca/sdk: src/cli/bin.ts bundled into one file, dist/cli.mjs, with the pure
// modules of the Finca repository it uses (workbook reading, sandbox references) inside it and the
// packages it names left to the package's own dependencies. Built in the Finca repository (its
// tsconfig resolves `@/…`); the bundle needs nothing of it.
//   node packages/sdk/build-cli.mjs [outfile]      (npm run build in packages/sdk does it)
import { chmodSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

/** Bundles the bin into `outfile` (default dist/cli.mjs), executable. */
export async function buildCli(outfile = path.join(here, "dist", "cli.mjs")) {
  const { build } = await import("esbuild");
  await build({
    absWorkingDir: root,
    entryPoints: [path.join(here, "src", "cli", "bin.ts")],
    // The repository's tsconfig for every file: its `@/…` paths reach the modules bundled in.
    tsconfig: path.join(root, "tsconfig.json"),
    outfile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
    logLevel: "warning",
  });
  chmodSync(outfile, 0o755);
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli(process.argv[2]);
