// The partner API alone on a lean node:http server (no Next.js): the same handlers, for an
// API-only deployment and to measure what the framework costs (bench/create).
//   DATABASE_URL=… PORT=4000 npx tsx scripts/serve-api.ts
import { getApp } from "@/lib/app";
import { createPartnerApi } from "@/lib/partner-api";
import { createPartnerApiServer } from "@/lib/partner-api/node-server";

const app = await getApp();
const server = createPartnerApiServer(createPartnerApi(app));
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 4000), () => console.log(`[finca] partner API on :${process.env.PORT ?? 4000}`));
// Stop taking requests, then stop the workers (a job they run is finished or handed back) and the
// pool, as the Next.js server and scripts/worker.ts do.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close();
    server.closeIdleConnections();
    void app.close().finally(() => process.exit(0));
  });
}
