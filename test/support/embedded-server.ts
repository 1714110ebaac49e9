// The test run's one PostgreSQL when DATABASE_URL is unset: an embedded PostgreSQL in a throw-away
// folder, started once for the whole run (vitest's globalSetup; scripts/test.mjs starts it before
// vitest and Playwright instead, so both share it), handed to everything as DATABASE_URL, and
// stopped at the end. Test files make their own databases on it (./database.ts). Should the run be
// killed, the server stops with it and takes its folder along (lib/db/postgres-keeper.mjs).
import { chmod, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { embeddedPostgres } from "../../lib/db/embedded";

/** Starts the run's server unless DATABASE_URL names one; resolves with its stop. */
export async function runServer(): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL) return async () => {};
  const folder = await mkdtemp(path.join(tmpdir(), "finca-test-pg-"));
  await chmod(folder, 0o711);
  const server = await embeddedPostgres(folder, { ephemeral: true });
  process.env.DATABASE_URL = server.url;
  return async () => {
    delete process.env.DATABASE_URL;
    await server.release();
  };
}

export default runServer;
