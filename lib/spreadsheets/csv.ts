// Parsing CSV text (csv-parse) in worker threads, so a hostile file (a line of commas parses at
// about 2 MB/s) costs the event loop that answers everyone's requests only the copying of text to
// the worker and of the wanted fields back. The threads are a pool of at most `size`, started as
// files come and kept; each file is a job on the thread with the fewest, so a file whose body
// arrives slowly holds no thread from the others, and a job stopped (a limit, an abort, a consumer
// that stopped reading) ends alone.
import { Worker } from "node:worker_threads";
import { CSV_READER } from "./csv-reader";
import { modulePaths } from "./reader-thread";

export interface CsvLimits {
  maxRowChars: number;
  maxFieldChars: number;
  maxColumns: number;
}

/** A row past a limit (`row`: characters, `field`: one field's characters, `columns`) at `line`. */
export class CsvRefused extends Error {
  constructor(
    readonly kind: "row" | "field" | "columns",
    readonly line: number,
  ) {
    super(`line ${line}: past the ${kind} limit`);
  }
}

/** csv-parse's own refusal (its `CSV_…` code), at `line`. */
export class CsvUnreadable extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** Heap of one CSV reader: a page of rows and a record under the row limit, many times over. */
const CSV_HEAP_MB = 256;

type FromReader =
  | { type: "want" }
  /** A row that may be the header, with its line. */
  | { type: "header"; header: string[]; line: number }
  | { type: "rows"; rows: string[][] }
  | { type: "done" }
  | { type: "refused"; kind: CsvRefused["kind"]; line: number }
  | { type: "error"; code: string | null; line: number; message: string }
  /** Not the worker's: its thread ended (out of memory, or the process is stopping). */
  | { type: "exit" };

/** A file's job on a reader thread: what it sends it, and its end (the thread told to drop it). */
interface Job {
  send(message: object): void;
  close(): void;
}

export interface CsvReaders {
  /** Reader threads alive now. */
  running(): number;
  /** Files being read now. */
  reading(): number;
  open(receive: (message: FromReader) => void): Job;
}

export function csvReaders(size: number): CsvReaders {
  const threads: { worker: Worker; jobs: Map<number, (message: FromReader) => void> }[] = [];
  let ids = 0;
  const spawn = () => {
    const worker = new Worker(CSV_READER, {
      eval: true,
      workerData: { csvParse: modulePaths.csvParse() },
      resourceLimits: { maxOldGenerationSizeMb: CSV_HEAP_MB, maxYoungGenerationSizeMb: 32 },
    });
    const thread = { worker, jobs: new Map<number, (message: FromReader) => void>() };
    // An idle thread keeps no process alive; one that dies (out of memory) fails its jobs and leaves the pool.
    worker.unref();
    worker.on("message", (message: FromReader & { id: number }) => thread.jobs.get(message.id)?.(message));
    worker.on("error", () => {});
    worker.on("exit", () => {
      threads.splice(threads.indexOf(thread), 1);
      for (const receive of thread.jobs.values()) receive({ type: "exit" });
    });
    threads.push(thread);
    return thread;
  };
  return {
    running: () => threads.length,
    reading: () => threads.reduce((sum, { jobs }) => sum + jobs.size, 0),
    open(receive) {
      const least = threads.reduce<(typeof threads)[number] | undefined>(
        (best, thread) => (best && best.jobs.size <= thread.jobs.size ? best : thread),
        undefined,
      );
      const thread = least && (least.jobs.size === 0 || threads.length >= size) ? least : spawn();
      const id = ++ids;
      thread.jobs.set(id, receive);
      return {
        send: (message) => thread.worker.postMessage({ id, ...message }),
        close() {
          if (thread.jobs.delete(id)) thread.worker.postMessage({ id, type: "stop" });
        },
      };
    },
  };
}

/** Which fields of the rows after the header are wanted: the first `whole` rows as read, then the fields at `keep`. */
export interface CsvPick {
  keep: number[];
  whole: number;
}

export interface CsvOptions {
  delimiter: string;
  limits: CsvLimits;
  /**
   * Given each row (and its line) until it answers: the fields wanted of the rows after it (that row
   * is the header), or null for the next row. It throws to stop the reading.
   */
  pick: (row: string[], line: number) => CsvPick | null;
  /** The request the text came with: when it aborts, the job is stopped and its reason thrown. */
  signal?: AbortSignal;
}

/**
 * The records of the CSV `text` after its header row, parsed in a reader thread, in pages: the rows
 * up to the header are given to `pick` one by one, the rows after it come as `pick` asked. A row past a limit ends it in CsvRefused, what csv-parse cannot
 * read in CsvUnreadable; a failure of the text's own source is thrown as it is.
 */
export async function* csvRows(
  readers: CsvReaders,
  text: AsyncIterable<string>,
  { delimiter, limits, pick, signal }: CsvOptions,
): AsyncGenerator<string[][]> {
  signal?.throwIfAborted();
  const source = text[Symbol.asyncIterator]();
  const inbox: FromReader[] = [];
  let wake = () => {};
  let stopped: unknown = null;
  const stop = (error: unknown) => {
    stopped ??= error;
    wake();
  };
  const job = readers.open((message) => {
    if (message.type === "want") void feed();
    else {
      inbox.push(message);
      wake();
    }
  });
  const feed = async () => {
    try {
      const next = await source.next();
      job.send(next.done ? { type: "end" } : { type: "text", text: next.value });
    } catch (error) {
      stop(error);
    }
  };
  const onAbort = () => stop(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    job.send({ type: "start", delimiter, limits });
    for (;;) {
      while (!inbox.length && !stopped) await new Promise<void>((resolve) => (wake = resolve));
      if (stopped) throw stopped;
      const message = inbox.shift()!;
      if (message.type === "exit") throw new Error("the CSV reader stopped before the file's end");
      if (message.type === "header") {
        const wanted = pick(message.header, message.line);
        job.send(wanted ? { type: "pick", ...wanted } : { type: "next" });
      } else if (message.type === "rows") {
        yield message.rows;
        job.send({ type: "ack" });
      } else if (message.type === "refused") throw new CsvRefused(message.kind, message.line);
      else if (message.type === "error")
        throw message.code?.startsWith("CSV_")
          ? new CsvUnreadable(message.line, message.message)
          : new Error(`the CSV reader failed: ${message.message}`);
      else if (message.type === "done") return;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    job.close();
    await source.return?.();
  }
}
