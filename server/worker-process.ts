// npm start's workers in a child process of their own (FINCA_WORKER_PROCESS, the default): a
// portfolio's steps (a thousand items registered, looked up and written per step) then run on
// another event loop than the one serving the portal and the API, which only queues jobs. The child
// is scripts/worker.ts on the same database (the embedded server's address is handed over; the
// server process stays its owner). It logs to the same output; its Prometheus figures are its own
// (WORKER_OPS_PORT serves them). It runs at the lowest priority (nice 19), and so do its sessions'
// processes of the embedded PostgreSQL (the portfolio's statements are the larger part of its
// work): on a machine with few cores, the portal's pages and the API then keep the CPU they need
// while a portfolio runs, and the portfolio gets every cycle left. It ends when the server stops it, and by itself when the server
// is gone however it went (its IPC channel closes). One that crashes is started again.
import { type ChildProcess, spawn } from "node:child_process";
import { setPriority } from "node:os";
import { fileURLToPath } from "node:url";
import { errorFields } from "@/lib/observability/logger";
import type { App } from "./app";

/** How long a stopping worker may take to hand back its jobs before it is killed. */
const STOP_MS = 30_000;
const RESTART_MS = [1000, 2000, 5000, 10_000, 30_000];
const WORKER_NICE = 19;

/**
 * The worker's entry beside this one's, with node's arguments: compiled (.finca-server/scripts/
 * worker.mjs) when npm start runs this compiled; the source under tsx's loader otherwise (carried
 * over from this process's arguments, or added where the source was loaded another way: tests).
 */
function workerCommand(): string[] {
  if (!import.meta.url.endsWith(".ts"))
    return [...process.execArgv, fileURLToPath(new URL("../scripts/worker.mjs", import.meta.url))];
  const loader = process.execArgv.some((arg) => arg.includes("tsx")) ? [] : ["--import", "tsx"];
  return [...process.execArgv, ...loader, fileURLToPath(new URL("../scripts/worker.ts", import.meta.url))];
}

export function startWorkerProcess(app: App): { stop(): Promise<void> } {
  let child: ChildProcess;
  let stopping = false;
  let crashes = 0;
  const start = () => {
    const env = {
      ...process.env,
      DATABASE_URL: app.database.url,
      FINCA_WORKERS: "1",
      // Its sessions' processes on the embedded server (this machine's, ours to renice) too.
      ...(app.database.kind === "embedded" ? { FINCA_DATABASE_SESSION_NICE: String(WORKER_NICE) } : {}),
    };
    child = spawn(process.execPath, workerCommand(), {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env,
    });
    try {
      if (child.pid) setPriority(child.pid, WORKER_NICE);
    } catch (error) {
      app.logger.warn(errorFields(error), "the worker process keeps the server's priority");
    }
    const started = Date.now();
    child.on("exit", (code, signal) => {
      if (stopping) return;
      // Exit 0 is a worker that was asked to stop (a signal of its own): nothing to start again.
      if (code === 0) return void app.logger.warn("the worker process stopped");
      if (Date.now() - started > 60_000) crashes = 0;
      const wait = RESTART_MS[Math.min(crashes++, RESTART_MS.length - 1)]!;
      app.logger.error({ code, signal, restartInMs: wait }, "the worker process ended: starting it again");
      setTimeout(() => stopping || start(), wait).unref();
    });
    child.on("error", (error) => app.logger.error(errorFields(error), "the worker process failed"));
  };
  start();
  return {
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
