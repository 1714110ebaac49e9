// Child process for test/ops/log-buffer.test.ts: logs numbered lines to stdout through the server's
// logger (createLogger with LOG_BUFFER_BYTES's option), one per turn of the event loop, and reports
// on stderr how many writes reached stdout's file descriptor.
//   <bufferBytes> <lines> exit: logs the lines and exits at once (what is held must still be written).
//   <bufferBytes> <lines> stay: logs the lines, then stays up until its stdin closes.
import fs from "node:fs";
import { createLogger } from "@/lib/observability/logger";

const [bufferBytes, lines, then] = process.argv.slice(2);
let writes = 0;
// sonic-boom writes through fs.write (asynchronously) and fs.writeSync (at exit): counted on fd 1.
const { write, writeSync } = fs;
fs.write = ((fd: number, ...rest: unknown[]) => {
  if (fd === 1) writes += 1;
  return (write as (...a: unknown[]) => void)(fd, ...rest);
}) as typeof fs.write;
fs.writeSync = ((fd: number, ...rest: unknown[]) => {
  if (fd === 1) writes += 1;
  return (writeSync as (...a: unknown[]) => number)(fd, ...rest);
}) as typeof fs.writeSync;

const logger = createLogger({ format: "json", bufferBytes: Number(bufferBytes) });
// After the logger's own exit hook (pino's last write at exit), so that write is counted too.
process.on("exit", () => process.stderr.write(`writes=${writes}\n`));
for (let i = 0; i < Number(lines); i++) {
  logger.info({ line: i, route: "createProperty", status: 201, path: "/api/v1/properties" }, "request");
  await new Promise((resolve) => setImmediate(resolve));
}
if (then === "exit") process.exit(0);
process.stdin.resume().on("end", () => process.exit(0));
