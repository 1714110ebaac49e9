// The worker that parses CSV files (csv-parse), as source: CommonJS run with `eval` in a worker
// thread, for the reason the workbook reader is one (./workbook-reader.ts). A thread parses several
// files at once, each a job with its id in every message; a job waits for its text without holding
// the thread (a body that arrives slowly delays no other file). Messages: the parent sends {start}
// (the delimiter and the limits), {text} or {end} (each answering a {want}), {pick} or {next}
// (answering {header}: that row is the header, or send the next one), {ack} (after each {rows}) and {stop} (the job is not wanted any more); the worker
// sends {want}, {header}, {rows}, {done}, {refused} (a limit, with its kind and line) and {error}
// (csv-parse's, with its code and line).
import { LOWER_PRIORITY } from "./reader-thread";

export const CSV_READER = `
const { parentPort, workerData } = require("node:worker_threads");
const { finished } = require("node:stream/promises");
${LOWER_PRIORITY}
const { parse } = require(workerData.csvParse);

// The parser is given this many characters at a time; after each, the record being read is
// checked (a line of a million empty fields holds no characters for max_record_size to count).
const SLICE = 8 * 1024;
// Records per message at most (each acknowledged: a slow consumer holds the worker).
const PAGE_ROWS = 1000;

const jobs = new Map();
parentPort.on("message", (message) => {
  const job = jobs.get(message.id);
  if (message.type === "start") {
    const started = { id: message.id, inbox: [], wake: () => {}, stopped: false };
    jobs.set(message.id, started);
    read(started, message)
      .catch((error) => started.stopped || fail(started, error))
      .finally(() => jobs.delete(message.id));
  } else if (!job) return;
  else if (message.type === "stop") {
    job.stopped = true;
    job.wake();
  } else {
    job.inbox.push(message);
    job.wake();
  }
});

class Stopped extends Error {}

/** The job's next message (a stopped job's reading ends at its next wait). */
async function next(job) {
  while (!job.inbox.length && !job.stopped) await new Promise((resolve) => (job.wake = resolve));
  if (job.stopped) throw new Stopped();
  return job.inbox.shift();
}

class Refused extends Error {
  constructor(kind, line) {
    super(kind);
    this.kind = kind;
    this.line = line;
  }
}

function fail({ id }, error) {
  if (error instanceof Refused) return parentPort.postMessage({ id, type: "refused", kind: error.kind, line: error.line });
  const code = (error && error.code) || null;
  const line = (error && error.lines) || 1;
  if (code === "CSV_MAX_RECORD_SIZE") return parentPort.postMessage({ id, type: "refused", kind: "row", line });
  parentPort.postMessage({ id, type: "error", code, line, message: String((error && error.message) || error) });
}

async function read(job, { delimiter, limits }) {
  const post = (message) => parentPort.postMessage({ id: job.id, ...message });
  const page = [];
  // Each record's line, until the header is picked (the parent names the rows it looks at by it).
  const lines = [];
  let picked = false;
  let keep = [];
  let whole = 0;
  let failure = null;
  const parser = parse({
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    // Every line ending, each time: csv-parse otherwise takes the first line's for the file, and a
    // CRLF file with LF lines appended would merge each such line into the row before it.
    record_delimiter: ["\\r\\n", "\\n", "\\r"],
    skip_empty_lines: true,
    // csv-parse stops a record at this many characters as it goes; columns and fields are checked
    // on each record (a \`cast\` per field made parsing 25 times slower).
    max_record_size: limits.maxRowChars,
    on_record: (record, context) => {
      if (record.length > limits.maxColumns) throw new Refused("columns", context.lines);
      for (const value of record) if (value.length > limits.maxFieldChars) throw new Refused("field", context.lines);
      // csv-parse builds an error object (unused: relax_column_count) for each record whose field
      // count differs from the first record's, 13% of the parse of wide rows under a short header:
      // expecting the last record's count, a file's regular rows cost none.
      parser.state.expectedRecordLength = record.length;
      if (!picked) lines.push(context.lines);
      return record;
    },
  });
  parser.on("data", (record) => page.push(record));
  parser.on("error", (error) => (failure ??= error));
  const write = (slice) => new Promise((resolve) => parser.write(slice, () => resolve()));
  // Rows go alone until the parent picks its header (title lines may come first), and it answers
  // which fields of the later rows it wants: the first \`whole\` rows as read, then only the fields
  // at \`keep\` (copying every field of wide rows to the parent's thread would cost it what parsing
  // them did).
  const flush = async () => {
    while (!picked && page.length) {
      post({ type: "header", header: page.shift(), line: lines.shift() });
      const answer = await next(job);
      if (answer.type === "pick") {
        picked = true;
        ({ keep, whole } = answer);
      }
    }
    if (!page.length) return;
    const records = page.splice(0);
    const rows = records.map((row) => (whole > 0 && whole-- ? row : keep.map((i) => row[i] ?? "")));
    post({ type: "rows", rows });
    await next(job);
  };
  try {
    for (let message = (post({ type: "want" }), await next(job)); message.type === "text"; ) {
      const text = message.text;
      for (let at = 0; at < text.length; at += SLICE) {
        await write(text.slice(at, at + SLICE));
        if (failure) throw failure;
        await yieldToOthers();
        if (parser.state.record.length > limits.maxColumns) throw new Refused("columns", parser.info.lines);
        if (!picked || page.length >= PAGE_ROWS) await flush();
      }
      await flush();
      post({ type: "want" });
      message = await next(job);
    }
    parser.end();
    await finished(parser);
    if (failure) throw failure;
    await flush();
    post({ type: "done" });
  } finally {
    parser.destroy();
  }
}
`;
