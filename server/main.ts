// `npm start`'s server process: the front door (./http.ts) sends the partner API to its own
// listener and everything else to Next.js; the App (database, queue, workers) in the same process,
// and graceful shutdown: stop taking requests, let those in flight finish, stop the workers, close
// the database.
import { randomBytes } from "node:crypto";
import http from "node:http";
import next from "next";
import { createPartnerApi } from "@/lib/partner-api";
import { partnerApiListener } from "@/lib/partner-api/node-server";
import { getApp } from "./app";
import { frontDoor } from "./http";
import { appOrExit, closeOnSignals, stopHttpServer } from "./lifecycle";

const port = Number(process.env.PORT ?? 3000);
// The App first: a start it refuses ends the process before Next.js is up.
const app = await appOrExit(getApp);
// The checkout's root: npm start runs it from there (compiled, it no longer sits in server/).
const nextApp = next({ dev: false, dir: process.cwd(), port });
await nextApp.prepare();
const handle = nextApp.getRequestHandler();
// Next.js's own copy of server/auth.ts reads the token from the environment: the process is one.
process.env.FINCA_FRONT_DOOR_TOKEN = randomBytes(16).toString("hex");
const server = http.createServer(
  frontDoor(
    (req, res) => void handle(req, res),
    partnerApiListener(createPartnerApi(app)),
    process.env.FINCA_FRONT_DOOR_TOKEN,
  ),
);
// Longer than the usual load balancer's idle timeout, so it never reuses a connection we closed.
server.keepAliveTimeout = 65_000;
server.listen(port, () => app.logger.info({ port, database: app.database.kind }, "ready"));
closeOnSignals(app, async () => {
  await stopHttpServer(server);
  await nextApp.close();
});
