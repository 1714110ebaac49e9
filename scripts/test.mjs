// `npm test`: unit and integration tests (vitest), then the portal end-to-end tests (Playwright in
// Debian's Chromium). Runs on PGlite, or on PostgreSQL when DATABASE_URL is set.
import { spawnSync } from "node:child_process";

function run(command, args) {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  return result.status ?? 1;
}

const extra = process.argv.slice(2);
let failed = run("npx", ["vitest", "run", ...extra]) !== 0;
if (!process.env.FINCA_SKIP_E2E && !extra.length) failed = run("npx", ["playwright", "test"]) !== 0 || failed;
process.exit(failed ? 1 : 0);
