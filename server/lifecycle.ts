// Graceful shutdown, the same for every process (Next.js server, lean API server, worker): on
// SIGTERM, SIGINT or SIGHUP, fail readiness, stop taking requests (those in flight finish), then stop
// the workers, then close the database, then write out the log, then exit; each step bounded.
import type { Server } from "node:http";
import v8 from "node:v8";
import { handlersSettled } from "@/lib/http/counting-server";
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
/** How long connections and handlers in flight are given, from the stop, before they are cut. */
export const DRAIN_MS = 20_000;
/**
 * How long a whole stop may take before the process exits 1 all the same: the HTTP drain, the worker
 * process's (30 s) and the queue's (10 s) bounds, with room. A second signal does not hurry it (a
 * terminal's Ctrl-C arrives twice); this does.
 */
const STOP_MS = 75_000;

export function closeOnSignals(app: App, stopServing: () => Promise<void> | void = () => {}): void {
  const shutdown = async (signal: string) => {
    app.logger.info({ signal }, "stopping");
    setTimeout(() => {
      app.logger.error({ signal, afterMs: STOP_MS }, "the stop took too long: exiting");
      void closeLogs(app.logger, LOGS_CLOSE_MS).then(() => process.exit(1));
    }, STOP_MS).unref();
    app.beginShutdown();
    let failed = false;
    try {
      await stopServing();
      await app.close();
    } catch (error) {
      failed = true;
      app.logger.error(errorFields(error), "shutdown failed");
    }
    await closeLogs(app.logger, LOGS_CLOSE_MS);
    process.exit(failed ? 1 : 0);
  };
  // Once: a terminal's Ctrl-C reaches this process twice (from the terminal, and relayed by npm
  // start's launcher), and a second signal left to node's default would end it mid-shutdown.
  // SIGHUP (the terminal closed) stops it the same way: node's default would end it at once.
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const)
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void shutdown(signal);
    });
}

/**
 * Stops a node:http server taking requests: no new connections, idle keep-alive ones closed now,
 * busy ones once answered (node leaves those open, idle, until their keep-alive timeout: they are
 * closed as they go idle). Resolves once every connection is gone and, for a server countingServer
 * made, every handler has settled (one whose client hung up runs on), so what runs next (closing the
 * database) never cuts a request short. Past `boundMs` (a client reading a long stream slowly) the
 * connections left are cut, and handlers still running are no longer waited for.
 */
export async function stopHttpServer(server: Server, boundMs = DRAIN_MS): Promise<void> {
  let bound: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (bound = setTimeout(() => resolve("late"), boundMs)));
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  try {
    if ((await Promise.race([closed, late])) === "late") {
      server.closeAllConnections();
      await closed;
    }
    await Promise.race([handlersSettled(server), late]);
  } finally {
    clearInterval(sweep);
    clearTimeout(bound);
  }
}
