// Child process for test/ops/log-buffer.test.ts: logs numbered lines to stdout through the server's
// logger (createLogger with LOG_BUFFER_BYTES's option) and reports on stderr how many writes reached
// stdout's file descriptor, and for how many lines a write began while the line was logged.
//   <bufferBytes> <lines> burst [closeMs]: logs the lines in one go, then stops as a signalled server does
//   (closeLogs, bounded by closeMs, default 30 s).
//   <bufferBytes> <lines> paced: logs a line, waits until the writes begun so far have completed, logs the next.
//   <bufferBytes> <lines> stay: logs the lines, then stays up until its stdin closes.
import fs from "node:fs";
import { closeLogs, createLogger } from "@/lib/observability/logger";

const [bufferBytes, lines, mode, closeMs = "30000"] = process.argv.slice(2);
let begun = 0;
let completed = 0;
// sonic-boom writes through fs.write (asynchronously, its callback last) and fs.writeSync (pino's exit
// hook): the non-empty ones on fd 1 are counted (a flush with nothing held writes an empty string).
const { write, writeSync } = fs;
const length = (data: unknown) => (typeof data === "string" ? data.length : (data as Buffer).byteLength);
fs.write = ((fd: number, data: unknown, ...rest: unknown[]) => {
  if (fd !== 1 || length(data) === 0) return (write as (...a: unknown[]) => void)(fd, data, ...rest);
  begun += 1;
  const done = rest.pop() as (...a: unknown[]) => void;
  return (write as (...a: unknown[]) => void)(fd, data, ...rest, (...result: unknown[]) => {
    completed += 1;
    done(...result);
  });
}) as typeof fs.write;
fs.writeSync = ((fd: number, data: unknown, ...rest: unknown[]) => {
  if (fd === 1 && length(data) > 0) begun += 1;
  return (writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
}) as typeof fs.writeSync;

const logger = createLogger({ format: "json", bufferBytes: Number(bufferBytes) });
// After the logger's own exit hook (pino's last write at exit), so that write is counted too.
let immediate = 0;
process.on("exit", () => process.stderr.write(`writes=${begun} immediate=${immediate}\n`));
const log = (line: number) =>
  logger.info({ line, route: "createProperty", status: 201, path: "/api/v1/properties" }, "request");
const turn = () => new Promise((resolve) => setImmediate(resolve));

for (let i = 0; i < Number(lines); i++) {
  const before = begun;
  log(i);
  if (begun > before) immediate += 1;
  if (mode === "paced") while (completed < begun) await turn();
}
if (mode === "stay") process.stdin.resume().on("end", () => process.exit(0));
else {
  await closeLogs(logger, Number(closeMs));
  process.exit(0);
}
