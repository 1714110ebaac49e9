// A real Prometheus (Debian's `prometheus`, installed by .ci/run) scraping a running instance (the
// lean server, with METRICS_TOKEN) with the scrape configuration docs/operations.md documents: through its
// HTTP API, the target is up and the create counter equals the creates made. Skipped only outside
// CI when the program is missing.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { checkLetters } from "@/lib/cadastral-reference";
import { useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { freePort } from "../support/ports";
import { startProgram, stopAll } from "../support/processes";
import { eventually } from "../support/wait";
import { serve } from "./support";

const installed = (() => {
  try {
    execFileSync("prometheus", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

let t: TestApp;
let key: string;
const TOKEN = "prometheus-scrape-token";
useTestApp({ sources: fakeSources(), env: { METRICS_TOKEN: TOKEN } }, (ctx) => ({ t, key } = ctx));

const dir = mkdtempSync(path.join(tmpdir(), "finca-prometheus-"));
afterAll(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

it.skipIf(!installed && !process.env.CI)(
  "Prometheus scrapes the instance: target up, creates counted exactly",
  async () => {
    const server = await serve(t);
    try {
      const target = new URL(server.url("/")).host;
      const creates = 7;
      for (let i = 0; i < creates; i++) {
        const first18 = `9398516VK3799G${String(i + 1).padStart(4, "0")}`;
        const res = await fetch(server.url("/api/v1/partner-api/properties"), {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-API-Key": key },
          body: JSON.stringify({ cadastral_reference: first18 + checkLetters(first18) }),
        });
        expect(res.status).toBe(201);
      }
      writeFileSync(
        path.join(dir, "prometheus.yml"),
        [
          "global:",
          "  scrape_interval: 1s",
          "scrape_configs:",
          "  - job_name: finca",
          "    metrics_path: /metrics",
          "    authorization:",
          `      credentials: ${TOKEN}`,
          "    static_configs:",
          `      - targets: ["${target}"]`,
          "",
        ].join("\n"),
      );
      const port = await freePort();
      startProgram("prometheus", [
        `--config.file=${path.join(dir, "prometheus.yml")}`,
        `--storage.tsdb.path=${path.join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
        "--log.level=warn",
      ]);
      const api = async (query: string) => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?${new URLSearchParams({ query })}`).catch(
          () => null,
        );
        const body = res?.ok ? ((await res.json()) as { data: { result: { value: [number, string] }[] } }) : null;
        return body?.data.result.map((r) => Number(r.value[1])) ?? null;
      };
      await eventually(
        "Prometheus finds the target up",
        async () => (await api(`up{job="finca",instance="${target}"}`))?.[0] === 1,
      );
      await eventually(
        `Prometheus's create counter reaching ${creates}`,
        async () => (await api(`sum(finca_property_creates_total{job="finca",outcome="created"})`))?.[0] === creates,
      );
      expect(await api(`finca_property_creates_total{job="finca",mode="test",outcome="created"}`)).toEqual([creates]);
    } finally {
      await server.close();
    }
  },
);
