// A worker-only process (PostgreSQL deployments): runs the enrichment and webhook jobs, no HTTP.
// Start as many as needed beside `FINCA_WORKERS=0` app instances:  DATABASE_URL=… npx tsx scripts/worker.ts
import { createApp } from "@/lib/app";

if (!process.env.DATABASE_URL) {
  console.error("scripts/worker.ts needs DATABASE_URL: with embedded PGlite the server runs the workers itself.");
  process.exit(2);
}
const app = await createApp({ workers: true });
console.log("[finca] worker ready");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await app.close();
    process.exit(0);
  });
}
