// The worker that reads a workbook, as source: CommonJS run with `eval` in a worker thread under a
// heap limit, so a workbook that unpacks to far more than its size (a decompression bomb) ends that
// worker, not the process. It is a string because every host runs it as written: bundlers rewrite
// `require` inside functions they bundle, which an eval worker could not run. `index.test.ts`
// runs it. Messages: the parent sends {chunk}, {end}, {fail} and {ack} (after each batch of rows);
// the worker sends {want} (more bytes), {rows}, {done, sheets}, {error} and {refused} (a limit).
import { LOWER_PRIORITY } from "./reader-thread";

/**
 * unzipper's Parse (exceljs' copy, 0.10) emits 'end' itself once the archive's bytes are all taken in,
 * while entries it has pushed may still wait in its buffer, unread: exceljs stops at that 'end', and a
 * workbook whose last entries (xl/workbook.xml, in exceljs' own files) were still waiting failed with
 * "Cannot read properties of undefined (reading 'sheets')" whenever the reader fell behind (a slow
 * temporary file, a busy machine). Its readable side is ended the stream's way instead: 'end' comes
 * once every entry has been read. Source run in the worker with unzipper's `Parse` in scope.
 */
export const ENDS_AFTER_ITS_ENTRIES = `
const emitParse = Parse.prototype.emit;
Parse.prototype.emit = function (event, ...args) {
  if (event !== "end" || this._readableState.endEmitted) return emitParse.call(this, event, ...args);
  this.push(null);
  return false;
};`;

export const WORKBOOK_READER = `
const { parentPort, workerData } = require("node:worker_threads");
${LOWER_PRIORITY}
const { Readable } = require("node:stream");
const zlib = require("node:zlib");

// Each archive entry inflates to at most workerData.entryMaxBytes: a bomb is refused as it unpacks,
// before exceljs holds it or writes it to a temporary file (a sheet before its shared strings).
// exceljs' unzipper inflates each entry with a zlib InflateRaw: in this worker, those count what
// they give out (the zlib module's own functions cannot be replaced; its classes' prototypes can).
const push = zlib.InflateRaw.prototype.push;
Object.defineProperty(zlib.InflateRaw.prototype, "push", {
  value: function (chunk, encoding) {
    this.inflatedBytes = (this.inflatedBytes || 0) + (chunk ? chunk.length : 0);
    if (this.inflatedBytes <= workerData.entryMaxBytes) return push.call(this, chunk, encoding);
    // Told at once: exceljs may be waiting on the entry's end (a sheet copied to a temporary file),
    // which never comes; the parent stops this worker.
    const message = "an archive entry unpacks to more than " + workerData.entryMaxBytes / 1048576 + " MiB";
    parentPort.postMessage({ type: "error", message });
    this.destroy(new Error(message));
    return false;
  },
});
const ExcelJS = require(workerData.exceljs);

// Only the sheet that is read is parsed (a second sheet may unpack to 1 GiB of XML): exceljs takes
// each archive entry by its path, so a worksheet entry other than the first sheet is given another
// path, which exceljs drains unread (nor copies to a temporary file). Which sheet is first is
// decided when exceljs reaches the entry (the workbook and its relationships come before the
// sheets in every writer's archive); without them, the first worksheet entry is the one read.
const SHEET = /^xl\\/worksheets\\/sheet\\d+[.]xml$/;
let reader = null;
let firstEntry = null;
function firstSheetPath() {
  const first = reader && reader.model && reader.model.sheets && reader.model.sheets[0];
  const rel = first && (reader.workbookRels || []).find((r) => r.Id === first.rId);
  return rel ? rel.Target.replace(/^\\/?(xl\\/)?/, "xl/") : null;
}
const Parse = require(require("node:module").createRequire(require.resolve(workerData.exceljs)).resolve("unzipper")).Parse;
${ENDS_AFTER_ITS_ENTRIES}
const pushEntry = Object.getPrototypeOf(Parse.prototype).push;
Parse.prototype.push = function (entry, encoding) {
  if (entry && typeof entry.path === "string" && SHEET.test(entry.path)) {
    const path = entry.path;
    let seen = null;
    Object.defineProperty(entry, "path", {
      get() {
        if (seen === null) {
          firstEntry = firstEntry || path;
          // Another path exceljs' unanchored patterns do not match (no "xl/worksheets/" in it).
          seen = path === (firstSheetPath() || firstEntry) ? path : "unread:" + path.replaceAll("/", ":");
        }
        return seen;
      },
    });
  }
  return pushEntry.call(this, entry, encoding);
};

// A cell as the CSV of the same sheet would show it: dates as YYYY-MM-DD, formulas as their stored result.
function cellText(value) {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== "object") return String(value);
  if ("richText" in value) return value.richText.map((part) => part.text).join("");
  if ("formula" in value || "sharedFormula" in value) return cellText(value.result);
  if ("text" in value) return String(value.text);
  return "";
}

const input = new Readable({ read() { parentPort.postMessage({ type: "want" }); } });
let acked = null;
parentPort.on("message", (message) => {
  if (message.type === "chunk") input.push(Buffer.from(message.chunk));
  else if (message.type === "end") input.push(null);
  else if (message.type === "fail") input.destroy(new Error(message.message));
  else if (message.type === "ack" && acked) acked();
});

async function read() {
  const workbook = (reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: "cache",
    styles: "cache",
    hyperlinks: "ignore",
    worksheets: "emit",
    entries: "ignore",
  }));
  let sheets = 0;
  let batch = [];
  // Text sent to the parent, in all and in this batch: the parent's thread copies every row it is
  // sent (a sheet of 1 GB would keep it busy for minutes), so what it may receive is capped.
  let text = 0;
  let batchText = 0;
  const flush = async () => {
    batchText = 0;
    if (!batch.length) return;
    const ack = new Promise((resolve) => (acked = resolve));
    parentPort.postMessage({ type: "rows", rows: batch });
    batch = [];
    await ack;
  };
  // The one sheet exceljs is given; the rest of the archive is not read once it is done.
  for await (const sheet of workbook) {
    sheets++;
    for await (const row of sheet) {
      await yieldToOthers();
      // row.values is 1-based (index 0 is always empty) and sparse: an empty cell is a hole, which
      // map would keep as one (undefined further on), so each index is read.
      const values = [];
      for (let i = 1; i < row.values.length; i++) values.push(cellText(row.values[i]).trim());
      const chars = values.reduce((sum, v) => sum + v.length, 0);
      if ((text += chars) > workerData.maxTextChars) {
        const message = "its rows hold more than " + workerData.maxTextChars + " characters of text";
        return parentPort.postMessage({ type: "refused", message });
      }
      batch.push({ sheet: sheet.name || "1", line: row.number, values });
      if (batch.length >= workerData.batch || (batchText += chars) >= workerData.batchChars) await flush();
    }
    break;
  }
  await flush();
  parentPort.postMessage({ type: "done", sheets });
}

read().catch((error) => parentPort.postMessage({ type: "error", message: String((error && error.message) || error) }));
`;
