// Preloaded (`node --import <this file>`) into every process a test or benchmark starts
// (test/support/processes.ts), and imported by scripts/e2e-server.mjs: when the process that
// started this one dies without stopping it (a test runner killed at a CI time limit, a crash),
// this process's group gets the SIGTERM its parent would have sent, and SIGKILL 10 s later, so
// nothing runs on unowned. A process stopped normally never notices it. Plain JavaScript: it runs
// before (and without) tsx's loader.
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  const signal = (name) => {
    try {
      process.kill(-process.pid, name); // this process leads its group (detached)
    } catch {
      process.kill(process.pid, name);
    }
  };
  setTimeout(() => signal("SIGKILL"), 10_000).unref();
  signal("SIGTERM");
}, 1000);
// Never what keeps a process alive.
watch.unref();
