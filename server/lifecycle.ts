// Graceful shutdown, the same for every process (Next.js server, lean API server, worker): on
// SIGTERM or SIGINT, fail readiness, stop taking requests (those in flight finish), then stop the
// workers, then close the database, then exit.
import type { Server } from "node:http";
import v8 from "node:v8";
import { closeLogs, errorFields } from "@/lib/observability/logger";
import type { App } from "./app";

/**
 * The App a process serves, or the process ends with the reason it cannot start (exit 1): a start
 * refused by the configuration or the database must not leave a process up and not listening
 * (Next.js's instrumentation hook, which also starts the App, only logs the failure).
 */
export async function appOrExit(start: () => Promise<App>): Promise<App> {
  try {
    const app = await start();
    // A process-wide setting, so made here for the process, not per App (tests make many in one).
    const growing = app.config.HEAP_GROWING_PERCENT;
    if (growing) v8.setFlagsFromString(`--heap-growing-percent=${growing}`);
    return app;
  } catch (error) {
    process.stderr.write(`Finca cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

/** How long a stop waits for its last log lines to be written (stdout may be a pipe nobody reads). */
const LOGS_CLOSE_MS = 2000;

export function closeOnSignals(app: App, stopServing: () => Promise<void> | void = () => {}): void {
  const shutdown = async (signal: string) => {
    app.logger.info({ signal }, "stopping");
    app.beginShutdown();
    try {
      await stopServing();
      await app.close();
    } catch (error) {
      app.logger.error(errorFields(error), "shutdown failed");
    }
    await closeLogs(app.logger, LOGS_CLOSE_MS);
    process.exit(0);
  };
  // Once: a terminal's Ctrl-C reaches this process twice (from the terminal, and relayed by npm
  // start's launcher), and a second signal left to node's default would end it mid-shutdown.
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void shutdown(signal);
    });
}

/**
 * Stops a node:http server taking requests: no new connections, idle keep-alive ones closed now,
 * busy ones once answered (node leaves those open, idle, until their keep-alive timeout: they are
 * closed as they go idle). Resolves once every connection is gone, so what runs next (closing the
 * database) never cuts a request short.
 */
export function stopHttpServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}
