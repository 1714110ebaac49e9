// A worker-only process (scripts/worker.ts, PostgreSQL) with WORKER_OPS_PORT serves the operators'
// endpoints: liveness, readiness and its own metrics; on SIGTERM it logs, stops and exits 0.
import { afterAll, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/database";
import { freePort } from "../support/ports";
import { startNode, stopGroup, stopAll } from "../support/processes";
import { eventually } from "../support/wait";

afterAll(stopAll);

it("serves /api/health, /api/ready and /metrics beside its workers", async () => {
  const database = await createPostgresDatabase(process.env.DATABASE_URL!, "finca_worker");
  try {
    const port = await freePort();
    const worker = startNode("scripts/worker.ts", [], {
      env: { DATABASE_URL: database.url, WORKER_OPS_PORT: String(port), LOG_FORMAT: "json" },
    });
    let output = "";
    worker.stdout!.setEncoding("utf8").on("data", (d: string) => (output += d));
    const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`).catch(() => null);
    await eventually("the worker is ready", async () => (await get("/api/ready"))?.status === 200);
    expect((await get("/api/health"))?.status).toBe(200);
    const metrics = await (await get("/metrics"))!.text();
    expect(metrics).toContain("# TYPE finca_job_runs_total counter");
    expect(metrics).toMatch(/^finca_queue_jobs\{queue="enrich",state="waiting"\} 0$/m);
    expect((await get("/api/v1/partner-api/properties"))?.status).toBe(404); // no API here
    await stopGroup(worker);
    expect(worker.exitCode).toBe(0);
    expect(output).toContain('"msg":"stopping"');
  } finally {
    await database.drop();
  }
});
