// Graceful shutdown, the same for every process (Next.js server, lean API server, worker): on
// SIGTERM or SIGINT, stop taking requests, then stop the workers, then close the database, then exit.
import { errorFields } from "@/lib/observability/logger";
import type { App } from "./app";

export function closeOnSignals(app: App, stopServing: () => Promise<void> | void = () => {}): void {
  const shutdown = async (signal: string) => {
    app.logger.info({ signal }, "stopping");
    try {
      await stopServing();
      await app.close();
    } catch (error) {
      app.logger.error(errorFields(error), "shutdown failed");
    }
    app.logger.flush();
    process.exit(0);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void shutdown(signal));
}
