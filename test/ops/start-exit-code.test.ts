// `npm run api`'s launcher (scripts/start.mjs) exits as its server did: a server ended by a signal
// (the OOM killer's SIGKILL, a crash) is 128 + the signal, as a shell reports it, never a clean 0.
import { execFileSync } from "node:child_process";
import { expect, it } from "vitest";
import { createPostgresDatabase } from "../support/database";
import { freePort } from "../support/ports";
import { startNode } from "../support/processes";
import { eventually } from "../support/wait";

it("exits 137 when its server is killed with SIGKILL", async () => {
  const database = await createPostgresDatabase(process.env.DATABASE_URL!, "finca_start_exit");
  try {
    const port = await freePort();
    const launcher = startNode("scripts/start.mjs", ["api"], {
      env: { DATABASE_URL: database.url, PORT: String(port), LOG_LEVEL: "warn" },
    });
    const exited = new Promise((resolve) => launcher.once("exit", resolve));
    const health = () => fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
    await eventually("the API is up", async () => (await health())?.status === 200);
    const [server] = execFileSync("pgrep", ["-P", String(launcher.pid)], { encoding: "utf8" })
      .trim()
      .split("\n");
    process.kill(Number(server), "SIGKILL");
    expect(await exited).toBe(137);
  } finally {
    await database.drop();
  }
});
