// Starts the App (database, migrations, queue, workers, bootstrap) with the server, so background
// work runs without waiting for a first request.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.NEXT_PHASE !== "phase-production-build") {
    await import("./server/start");
  }
}
