// Graceful shutdown, the same for every process (Next.js server, lean API server, worker): on
// SIGTERM or SIGINT, stop taking requests, then stop the workers, then close the database, then exit.
import type { App } from "./app";

export function closeOnSignals(app: App, stopServing: () => Promise<void> | void = () => {}): void {
  const shutdown = async (signal: string) => {
    console.log(`[finca] ${signal}: stopping`);
    try {
      await stopServing();
      await app.close();
    } catch (error) {
      console.error("[finca] shutdown:", error);
    }
    process.exit(0);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void shutdown(signal));
}
