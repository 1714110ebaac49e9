import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3217);

export default defineConfig({
  testDir: "e2e",
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
    trace: "retain-on-failure",
  },
  webServer: {
    command: `node scripts/e2e-server.mjs`,
    url: `http://127.0.0.1:${PORT}/api/v1/partner-api/openapi.json`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: { PORT: String(PORT) },
    // SIGTERM (not the default SIGKILL) lets scripts/e2e-server.mjs drop its database or data folder.
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
  },
});
