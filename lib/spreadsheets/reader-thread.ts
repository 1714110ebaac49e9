// What every file-reading worker thread (CSV and workbooks) shares. LOWER_PRIORITY, source run
// first in each: the thread lowers its own scheduling priority, so on a machine with few cores a
// partner's file being parsed yields the CPU to the event loop that answers everyone's requests,
// and it defines `yieldToOthers()`, which the readers await between slices of their work.
// Linux gives each thread its own nice value: setpriority() with the thread's id (read from
// /proc/thread-self) changes that thread only. Elsewhere it does nothing. Node has no thread
// priority API and no npm package offers one for worker threads.
// The nice value counts only within the process's session: with autogroup scheduling (the default
// of most Linux kernels, and on these machines) CPU is shared between sessions first, so a reader
// at nice 19 still took half a core from a PostgreSQL backend answering another partner's request
// (every backend is a session of its own) or from a client on the same machine. So a reader also
// steps aside while every core is taken, itself counted (/proc/loadavg's count of runnable threads
// at least the cores, read at most every YIELD_CHECK_MS of work), for at most YIELD_MAX_MS at a
// time: a core is left for whoever wakes next, and the file still advances (at a tenth of a core
// at least) on a saturated machine.
import { createRequire } from "node:module";

export const FILE_READER_NICE = 19;

const YIELD_CHECK_MS = 2;
const YIELD_STEP_MS = 2;
const YIELD_MAX_MS = 20;

export const LOWER_PRIORITY = `
try {
  const tid = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
  if (tid) require("node:os").setPriority(tid, ${FILE_READER_NICE});
} catch {}
const yieldToOthers = (() => {
  const cores = require("node:os").availableParallelism();
  const pause = require("node:timers/promises").setTimeout;
  const othersWaiting = () => {
    try {
      return Number(require("node:fs").readFileSync("/proc/loadavg", "utf8").split(" ")[3].split("/")[0]) >= cores;
    } catch {
      return false;
    }
  };
  let worked = Date.now();
  return async () => {
    if (Date.now() - worked < ${YIELD_CHECK_MS}) return;
    for (let paused = 0; paused < ${YIELD_MAX_MS} && othersWaiting(); paused += ${YIELD_STEP_MS}) await pause(${YIELD_STEP_MS});
    worked = Date.now();
  };
})();
`;

/**
 * Where a worker finds a package it requires (exceljs, csv-parse): resolved from this module (the
 * CLI's bundle sits elsewhere than the working directory), or by name from the working directory
 * where a bundler turned the resolution into a module id of its own (Next.js answers a number).
 * Each name is written out: a bundler resolves `resolve("exceljs")` at build time, but refuses
 * `resolve(name)` at run time ("expression is too dynamic").
 */
const pathOr = (resolved: unknown, name: string): string => (typeof resolved === "string" ? resolved : name);
export const modulePaths = {
  exceljs: () => pathOr(createRequire(import.meta.url).resolve("exceljs"), "exceljs"),
  csvParse: () => pathOr(createRequire(import.meta.url).resolve("csv-parse"), "csv-parse"),
};
