// What every file-reading worker thread (CSV and workbooks) shares. LOWER_PRIORITY, source run
// first in each: the thread lowers its own scheduling priority, so on a machine with few cores a
// partner's file being parsed yields the CPU to the event loop that answers everyone's requests
// (the parse still gets every idle cycle).
// Linux gives each thread its own nice value: setpriority() with the thread's id (read from
// /proc/thread-self) changes that thread only. Elsewhere it does nothing. Node has no thread
// priority API and no npm package offers one for worker threads.
import { createRequire } from "node:module";

export const FILE_READER_NICE = 19;

export const LOWER_PRIORITY = `
try {
  const tid = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
  if (tid) require("node:os").setPriority(tid, ${FILE_READER_NICE});
} catch {}
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
