// Node-only part of instrumentation.ts (kept apart so the edge bundle never sees `process.once`).
import { getApp } from "./app";
import { closeOnSignals } from "./lifecycle";

const app = await getApp();
// Next.js stops its own HTTP server on the same signals.
closeOnSignals(app);
console.log(`[finca] ready on ${app.database.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}`);
