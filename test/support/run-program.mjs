// Runs a program that is not node (Prometheus, say) under test/support/processes.ts's rules: this
// node process leads the group (and stops it should the test runner die, exit-with-parent.mjs),
// the program runs in that group, and stopping the group stops both.
import { spawn } from "node:child_process";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: "inherit" });
child.on("error", (error) => {
  console.error(`${command}: ${error.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
