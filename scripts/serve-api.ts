// The partner API alone on a lean node:http server (no Next.js): the same handlers, for an
// API-only deployment and to measure what the framework costs (bench/create).
//   DATABASE_URL=… PORT=4000 npm run api
import { createPartnerApi } from "@/lib/partner-api";
import { createPartnerApiServer } from "@/lib/partner-api/node-server";
import { getApp } from "@/server/app";
import { appOrExit, closeOnSignals, stopHttpServer } from "@/server/lifecycle";
import { opsHandlers } from "@/server/ops";

const app = await appOrExit(getApp);
const server = createPartnerApiServer(createPartnerApi(app), opsHandlers(app));
server.keepAliveTimeout = 65_000;
const port = app.config.PORT ?? 4000;
server.listen(port, () => app.logger.info({ port }, "partner API listening"));
closeOnSignals(app, () => stopHttpServer(server));
