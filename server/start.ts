// Node-only part of instrumentation.ts (kept apart so the edge bundle never sees Node APIs): the App
// starts with the server, so background work runs without waiting for a first request. Shutdown is
// the server's (server/main.ts).
import { getApp } from "./app";

await getApp();
