// Structured logs (pino): one JSON object a line, or pino-pretty's colours on a terminal. Lines are
// built from chosen fields (ids, statuses, timings, a key's visible start), never from requests,
// bodies or rows; the redaction below is the second line of defence should a field slip in.
import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import type { Config } from "@/lib/config";

export type { Logger };

/** What a layer below the composition root may log to (pino's logger is one). */
export interface LogSink {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** Field names that may hold a credential, at the top level or one object down. */
const SECRET_FIELDS = [
  "password",
  "passwordHash",
  "secret",
  "previousSecret",
  "key",
  "apiKey",
  "token",
  "authorization",
  "cookie",
  "x-api-key",
];
const TOP_LEVEL = SECRET_FIELDS.map((field) => `["${field}"]`);
const REDACT = [...TOP_LEVEL, ...SECRET_FIELDS.map((field) => `*["${field}"]`)];
const CENSOR = "[redacted]";

export interface LoggerOptions {
  level?: Config["LOG_LEVEL"];
  format?: Config["LOG_FORMAT"];
  /** Where lines go; default stdout. */
  destination?: DestinationStream;
  /** Stdout's JSON lines held until this many bytes wait (or FLUSH_MS passes); 0 or none: a write per line. */
  bufferBytes?: number;
}

/** How late a held line may be at most. */
const FLUSH_MS = 250;

export function createLogger(options: LoggerOptions = {}): Logger {
  const format = options.format ?? (!options.destination && process.stdout.isTTY ? "pretty" : "json");
  const settings = {
    level: options.level ?? "info",
    base: { pid: process.pid },
    redact: { paths: REDACT, censor: CENSOR },
  };
  // pino-pretty as a plain stream, not a transport: no worker thread, which Next.js's bundles and a
  // prompt shutdown both prefer.
  if (format === "pretty") {
    return pino(settings, pretty({ colorize: true, sync: true, destination: options.destination ?? 1 }));
  }
  // Stdout written asynchronously, and lines held until some kilobytes of them wait: each write is a
  // hop through libuv's thread pool and a wake-up of the reader, which under load cost a create more
  // server CPU than the rest of its logging (bench/create, docs/benchmarks.md). What is held and what is
  // in flight is written out by closeLogs at a graceful stop; a kill -9 loses it (at most a quarter second's).
  if (options.destination) return pino(settings, options.destination);
  const buffer = options.bufferBytes ?? 0;
  const stdout = pino.destination({ dest: 1, sync: false, minLength: buffer, periodicFlush: buffer ? FLUSH_MS : 0 });
  asyncStdouts.add(stdout);
  return pino(settings, stdout);
}

type Destination = ReturnType<typeof pino.destination>;
const asyncStdouts = new WeakSet<Destination>();

/**
 * For a process about to exit: writes out the lines the logger (or its parent) holds and waits for the
 * write in flight, at most `timeoutMs`. pino's own exit hook writes what is held but not a write already
 * handed to libuv's thread pool, which an exit loses (or lets land after the rest). The logger takes no
 * lines after; past the bound, what could not be written is dropped.
 */
export function closeLogs(logger: Logger, timeoutMs: number): Promise<void> {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as Destination;
  if (!asyncStdouts.has(stream)) {
    logger.flush();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    // Past the bound (stdout a pipe nobody reads) what is left is dropped: pino's exit hook would
    // otherwise retry its write to the full pipe for ever.
    const timer = setTimeout(() => {
      stream.destroy();
      resolve();
    }, timeoutMs);
    stream.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      stream.end();
    } catch {
      // Closed already (a second stop): nothing is left to write.
      clearTimeout(timer);
      resolve();
    }
  });
}

/**
 * `logger` for lines whose every field is a string, a number or null (the request line): its names
 * redacted, the same line. The paths one object down (`*["key"]`) run pino's redactor on each field,
 * a string too (a clone and every path tried), which cost a line three times its writing.
 */
export const flatLogger = (logger: Logger): Logger =>
  logger.child({}, { redact: { paths: TOP_LEVEL, censor: CENSOR } });

/**
 * An error as log fields: its class and message, not its stack or properties (a database error
 * carries its SQL and values). Drizzle's query errors append the statement's values to their
 * message ("params: …"): those are cut, and of the database's own error (the cause) only its
 * SQLSTATE code is kept (PostgreSQL quotes the offending value in its messages).
 */
export function errorFields(error: unknown): { error: string; errorClass?: string } {
  if (!(error instanceof Error)) return { error: String(error) };
  const message = error.message.replace(/\nparams:[\s\S]*$/, "");
  const { cause: reason } = error;
  const code = typeof reason === "object" && reason !== null && "code" in reason ? reason.code : undefined;
  const cause = message !== error.message && typeof code === "string" ? ` (SQLSTATE ${code})` : "";
  return { error: message + cause, errorClass: error.constructor.name };
}
