import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["lib/**/*.test.ts", "jobs/**/*.test.ts", "test/**/*.test.ts", "packages/**/*.test.ts"],
    // Bounds on correctness, not on speed: a test or hook still running after five minutes is
    // hung (the slowest takes about 30 s on an idle machine). A test bounds what it waits for
    // itself, with a message saying what never happened (test/support/wait.ts, processes.ts).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // DATABASE_URL, or else one embedded PostgreSQL for the whole run; each file makes its own
    // database on it (test/support/database.ts).
    globalSetup: ["test/support/embedded-server.ts"],
    // Each file gets its own database; two cores do not profit from more.
    maxWorkers: 2,
  },
});
