// A worker-only process (deployments on DATABASE_URL): runs the enrichment and webhook jobs, no API.
// Start as many as needed beside `FINCA_WORKERS=0` app instances:  DATABASE_URL=… npm run worker
// With WORKER_OPS_PORT it serves /api/health, /api/ready and /metrics there (its own job figures).
import { createOpsServer } from "@/lib/ops/server";
import { createApp } from "@/server/app";
import { appOrExit, closeOnSignals, stopHttpServer } from "@/server/lifecycle";
import { opsHandlers } from "@/server/ops";

if (!process.env.DATABASE_URL) {
  console.error("scripts/worker.ts needs DATABASE_URL: on the embedded PostgreSQL, npm start runs the workers itself.");
  process.exit(2);
}
const app = await appOrExit(() => createApp({ workers: true }));
const port = app.config.WORKER_OPS_PORT;
const server = port ? createOpsServer(opsHandlers(app)).listen(port) : null;
app.logger.info({ database: app.database.kind, opsPort: port ?? null }, "worker started");
closeOnSignals(app, () => (server ? stopHttpServer(server) : undefined));
// Started by npm start's server (server/worker-process.ts, an IPC channel to it): it stops when
// that server is gone, however it went (killed, it sends no signal).
process.on("disconnect", () => process.kill(process.pid, "SIGTERM"));
