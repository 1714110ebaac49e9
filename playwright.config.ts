import { defineConfig } from "@playwright/test";
import { SERVER_LOG } from "./e2e/server-log";

const PORT = Number(process.env.E2E_PORT ?? 3217);

export default defineConfig({
  testDir: "e2e",
  // Bounds on correctness, not on speed: every step takes seconds even on a busy machine (a durable
  // retry, a webhook delivery, a sign-in's password hash); what has not happened after a minute
  // never will, and a test still running after five is hung.
  timeout: 300_000,
  expect: { timeout: 60_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // A click or fill whose element never comes fails after the same minute, not at the test's five.
    actionTimeout: 60_000,
    navigationTimeout: 120_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
    trace: "retain-on-failure",
  },
  webServer: {
    // exec: the server script is Playwright's own child (no shell between), so it notices if
    // Playwright dies and stops itself (test/support/exit-with-parent.mjs).
    command: `exec node scripts/e2e-server.mjs`,
    url: `http://127.0.0.1:${PORT}/api/v1/partner-api/openapi.json`,
    // npm start builds first when the build is missing or stale: minutes on two busy cores.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    // Every log line, copied to SERVER_LOG: a test reads them for keys, secrets and passwords.
    env: { PORT: String(PORT), LOG_LEVEL: "debug", FINCA_E2E_SERVER_LOG: SERVER_LOG },
    // SIGTERM (not the default SIGKILL) lets scripts/e2e-server.mjs drop its database or data folder.
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
  },
});
