// Runs the embedded PostgreSQL server (lib/db/embedded.ts) for the Finca process that started it.
// It leads a process group of its own, so a Ctrl-C meant for Finca never reaches PostgreSQL (Finca
// drains its requests, then closes its connections, then asks for the stop), and it watches its
// parent through its stdin: when the parent closes it (a stop) or dies (a crash, SIGKILL), the
// server is stopped: smart (the CLIs connected meanwhile finish), then fast, then immediate.
// Plain JavaScript, spawned by path: it runs without tsx or a build.
import { spawn } from "node:child_process";
import { openSync, rmSync } from "node:fs";

const config = JSON.parse(process.argv[2]);
// PostgreSQL logs a failing statement with its values: readable by the folder's owner only.
const log = openSync(config.log, "a", 0o600);
const server = spawn(config.postgres, config.args, {
  stdio: ["ignore", log, log],
  env: { ...process.env, ...config.env },
  ...(config.uid === undefined ? {} : { uid: config.uid, gid: config.gid }),
});
server.on("error", (error) => {
  process.stderr.write(`${config.postgres}: ${error.message}\n`);
  process.exit(127);
});
server.on("exit", (code, signal) => {
  // A throw-away server (a test run's) takes its folder with it, however its owner ended.
  if (config.remove) rmSync(config.remove, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  server.kill("SIGTERM");
  setTimeout(() => server.kill("SIGINT"), config.smartMs).unref();
  setTimeout(() => server.kill("SIGQUIT"), config.smartMs + 30_000).unref();
}
process.stdin.on("end", stop);
process.stdin.on("error", stop);
process.stdin.resume();
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.on("SIGHUP", stop);
