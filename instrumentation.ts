// Starts the App (database, migrations, queue, workers, bootstrap) when the server starts, so
// background work runs without waiting for a first request, in the same process as PGlite.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { getApp } = await import("@/lib/app");
  const app = await getApp();
  const shutdown = async (signal: string) => {
    console.log(`[finca] ${signal}: stopping workers and closing the database`);
    await app.close().catch((error) => console.error("[finca] shutdown:", error));
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  console.log(`[finca] ready on ${app.database.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}`);
}
