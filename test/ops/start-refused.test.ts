// A start the App refuses (here the configuration: an admin e-mail without its password) ends the
// process with exit 1 and the reason, for `npm start`'s server and the lean API server (a worker
// goes through the same appOrExit): `npm start` stayed up and not listening, Next.js's
// instrumentation hook having only logged the failure.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { NEVER_MS } from "../support/bounds";
import { freePort } from "../support/ports";
import { runNode } from "../support/processes";

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "finca-start-refused-"));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

it.each(["server/main.ts", "scripts/serve-api.ts"])(
  "%s exits 1 with the reason when its configuration is refused",
  async (script) => {
    const run = await runNode(script, [], {
      env: {
        PORT: String(await freePort()),
        FINCA_DATA_DIR: dataDir,
        AUTH_SECRET: "start-refused",
        FINCA_ADMIN_EMAIL: "ops@finca.test",
        FINCA_ADMIN_PASSWORD: undefined,
        DATABASE_URL: undefined,
      },
      timeoutMs: NEVER_MS,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "Finca cannot start: FINCA_ADMIN_EMAIL and FINCA_ADMIN_PASSWORD must be set together.",
    );
  },
);

it("scripts/serve-api.ts exits 1 naming PORT when it is no port (it listened on a random one)", async () => {
  const run = await runNode("scripts/serve-api.ts", [], {
    env: { PORT: "abc", FINCA_DATA_DIR: dataDir, AUTH_SECRET: "start-refused", DATABASE_URL: undefined },
    timeoutMs: NEVER_MS,
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("Finca cannot start: Invalid configuration: PORT");
});
