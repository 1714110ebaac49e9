// `npm start`'s server process: the front door (./http.ts) sends the partner API to its own
// listener and everything else to Next.js; the App (database, queue) in the same process, the
// workers in a child process (./worker-process.ts) or, with FINCA_WORKER_PROCESS=0, here; and
// graceful shutdown: stop taking requests, let those in flight finish, stop the workers, close the
// database.
import { randomBytes } from "node:crypto";
import next from "next";
import { countingServer } from "@/lib/http/counting-server";
import { createPartnerApi } from "@/lib/partner-api";
import { partnerApiListener } from "@/lib/partner-api/node-server";
import { getApp } from "./app";
import { frontDoor } from "./http";
import { appOrExit, closeOnSignals, stopHttpServer } from "./lifecycle";
import { startWorkerProcess } from "./worker-process";
import { registerWorkers } from "./workers";

// The App first: a start it refuses ends the process before Next.js is up. Its workers after it.
const app = await appOrExit(() => getApp({ workers: false }));
const port = app.config.PORT ?? 3000;
const workersApart = app.config.FINCA_WORKERS && app.config.FINCA_WORKER_PROCESS;
if (app.config.FINCA_WORKERS && !workersApart) await registerWorkers(app);
const workers = workersApart ? startWorkerProcess(app) : null;
// The checkout's root: npm start runs it from there (compiled, it no longer sits in server/).
const nextApp = next({ dev: false, dir: process.cwd(), port });
await nextApp.prepare();
const handle = nextApp.getRequestHandler();
// Next.js's own copy of server/auth.ts reads the token from the environment: the process is one.
process.env.FINCA_FRONT_DOOR_TOKEN = randomBytes(16).toString("hex");
// Its handlers counted: a stop waits for those whose client hung up (lifecycle.ts).
const server = countingServer(
  frontDoor(
    (req, res) => handle(req, res),
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
  // Before the database closes: the worker hands its jobs back through it.
  await workers?.stop();
});
