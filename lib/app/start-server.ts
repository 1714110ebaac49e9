// Node-only part of instrumentation.ts (kept apart so the edge bundle never sees `process.once`).
import { getApp } from ".";

const app = await getApp();
const shutdown = async (signal: string) => {
  console.log(`[finca] ${signal}: stopping workers and closing the database`);
  await app.close().catch((error) => console.error("[finca] shutdown:", error));
  process.exit(0);
};
process.once("SIGTERM", () => void shutdown("SIGTERM"));
process.once("SIGINT", () => void shutdown("SIGINT"));
console.log(`[finca] ready on ${app.database.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}`);
