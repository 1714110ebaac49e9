// A worker-only process (PostgreSQL deployments): runs the enrichment and webhook jobs, no HTTP.
// Start as many as needed beside `FINCA_WORKERS=0` app instances:  DATABASE_URL=… npx tsx scripts/worker.ts
import { createApp } from "@/server/app";
import { closeOnSignals } from "@/server/lifecycle";

if (!process.env.DATABASE_URL) {
  console.error("scripts/worker.ts needs DATABASE_URL: with embedded PGlite the server runs the workers itself.");
  process.exit(2);
}
const app = await createApp({ workers: true });
app.logger.info({ database: app.database.kind }, "worker started");
closeOnSignals(app);
