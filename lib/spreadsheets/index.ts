// Reading XLSX workbooks as rows of text (exceljs' streaming reader): the first sheet, each cell as
// the CSV of the same sheet would show it. Formulas are never evaluated: a formula cell reads as the
// result the workbook stored with it, or empty.
import type { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import type ExcelJS from "exceljs";
import { modulePaths } from "./reader-thread";
import { WORKBOOK_READER } from "./workbook-reader";

export { csvStream } from "./csv-stream";
export { CsvRefused, csvReaders, csvRows, CsvUnreadable, type CsvLimits, type CsvPick, type CsvReaders } from "./csv";

/** exceljs, loaded when a workbook is first read or written: it holds 25 MiB a server never needing one would keep. */
export const excel = async (): Promise<typeof ExcelJS> => (await import("exceljs")).default;

export interface SheetRow {
  /** The first sheet's name. */
  sheet: string;
  /** The row's number in the sheet (1-based; empty rows are skipped, so numbers may jump). */
  line: number;
  /** Cell texts, trimmed, from column A. */
  values: string[];
}

/** Thrown when the bytes are not a workbook exceljs can read (the message says why). */
export class NotAWorkbook extends Error {}

/** The heap a workbook may use while it is read (what a real register's workbook needs, several times over). */
export const WORKBOOK_HEAP_MB = 512;
/** What one archive entry (a sheet, the shared strings) may unpack to: a real register's sheet, several times over. */
export const WORKBOOK_ENTRY_MAX_MB = 1024;
/** Rows per message from the reading worker (each batch acknowledged: a slow consumer holds the worker). */
const BATCH = 500;
/** Characters of text per message at most (a batch of long rows is sent early): the parent copies each. */
const BATCH_CHARS = 256 * 1024;
/** How often the worker's busy time is compared with its limit. */
const BUSY_CHECK_MS = 100;

let running = 0;
/** Workbook reader threads of this process alive now (started and not yet exited). */
export const readersRunning = () => running;

export interface ReadOptions {
  heapMb?: number;
  entryMaxMb?: number;
  /** Busy time (its event loop's active time) the worker may take; then it is ended and the workbook refused. */
  cpuSeconds?: number;
  /** The request the workbook came with: when it is aborted (the client gone), the worker is ended at once. */
  signal?: AbortSignal;
  /** Characters of text the rows may hold in all; past it the workbook is refused. */
  maxTextChars?: number;
}

type FromWorker =
  | { type: "want" }
  | { type: "rows"; rows: SheetRow[] }
  | { type: "done"; sheets: number }
  | { type: "error"; message: string }
  | { type: "refused"; message: string };

/**
 * The first sheet's rows, read in a worker thread whose heap is capped at `heapMb`: a workbook that
 * needs more (one that unpacks to far more than its size), or with an archive entry that unpacks to
 * more than `entryMaxMb`, or whose reading keeps the worker busy longer than `cpuSeconds`, is
 * refused with NotAWorkbook, and the process keeps its memory. A ZIP without a workbook, or a
 * damaged one, ends in NotAWorkbook; a failure of the bytes' own source (a size cap, a client gone)
 * is thrown as it is, and so is `signal`'s reason once it aborts. Other sheets are not parsed.
 */
export async function* firstSheetRows(
  stream: Readable,
  {
    heapMb = WORKBOOK_HEAP_MB,
    entryMaxMb = WORKBOOK_ENTRY_MAX_MB,
    cpuSeconds,
    signal,
    maxTextChars = Number.POSITIVE_INFINITY,
  }: ReadOptions = {},
): AsyncGenerator<SheetRow> {
  signal?.throwIfAborted();
  const worker = new Worker(WORKBOOK_READER, {
    eval: true,
    workerData: {
      exceljs: modulePaths.exceljs(),
      batch: BATCH,
      batchChars: BATCH_CHARS,
      entryMaxBytes: entryMaxMb * 1024 * 1024,
      maxTextChars,
    },
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(32, heapMb / 4) },
  });
  // The source's failure reaches us through its iterator (and is thrown as it is); an error event
  // emitted while no read is pending, or after we stopped, must not be an uncaught exception.
  stream.on("error", () => {});
  const source = stream[Symbol.asyncIterator]();
  const inbox: FromWorker[] = [];
  let wake: () => void = () => {};
  let ended: Error | null = null;
  let sourceError: unknown = null;
  // One read of the source at a time, as the worker asks for more.
  let feeding = Promise.resolve();
  const feed = () =>
    (feeding = feeding.then(async () => {
      try {
        const next = await source.next();
        if (next.done) worker.postMessage({ type: "end" });
        else
          worker.postMessage({
            type: "chunk",
            chunk: Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value),
          });
      } catch (error) {
        sourceError = error;
        // Not lib/domain's messageOf: the partner CLI bundles this reader, and the kernel brings zod.
        worker.postMessage({ type: "fail", message: error instanceof Error ? error.message : String(error) });
      }
    }));
  // Busy time counts from the worker's first request for bytes: loading exceljs is not the workbook's.
  let loaded: number | null = null;
  const busyTime = () => worker.performance.eventLoopUtilization().active;
  worker.on("message", (message: FromWorker) => {
    loaded ??= busyTime();
    if (message.type === "want") void feed();
    else {
      inbox.push(message);
      wake();
    }
  });
  worker.on("error", (error: Error & { code?: string }) => {
    ended =
      error.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? new NotAWorkbook(
            `the workbook needs more than ${heapMb} MiB of memory to read (it unpacks to far more than its size): refused`,
          )
        : error;
    wake();
  });
  running++;
  worker.on("exit", () => {
    running--;
    ended ??= new Error("the workbook reader stopped before the workbook's end");
    wake();
  });
  // Ended from here: the parent's own event loop runs while the worker is busy.
  // The first reason given (a caller's abort reason is whatever it gave) is thrown to the reader as it is.
  const stopped = new AbortController();
  const stop = (reason: unknown) => {
    stopped.abort(reason);
    void worker.terminate();
    wake();
  };
  const onAbort = () => stop(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  const busy =
    cpuSeconds === undefined
      ? undefined
      : setInterval(() => {
          if (loaded !== null && busyTime() - loaded > cpuSeconds * 1000)
            stop(new NotAWorkbook(`reading the workbook took more than ${cpuSeconds} s of work: refused`));
        }, BUSY_CHECK_MS);
  try {
    for (;;) {
      while (!inbox.length && !ended && !stopped.signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
      if (stopped.signal.aborted) throw stopped.signal.reason;
      const message = inbox.shift();
      if (!message) throw ended;
      if (message.type === "rows") {
        yield* message.rows;
        worker.postMessage({ type: "ack" });
      } else if (message.type === "error") {
        // The bytes' own source failed (a size cap, a client gone): that, not the workbook, is the error.
        if (sourceError) throw sourceError;
        throw new NotAWorkbook(`not a readable XLSX workbook (${message.message})`);
      } else if (message.type === "refused") {
        throw new NotAWorkbook(`refused: ${message.message}`);
      } else if (message.type === "done") {
        if (!message.sheets)
          throw new NotAWorkbook("a ZIP archive holding no workbook: extract it and use the files inside");
        return;
      }
    }
  } finally {
    clearInterval(busy);
    signal?.removeEventListener("abort", onAbort);
    await worker.terminate();
  }
}
