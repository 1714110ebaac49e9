// `finca batch …`: a partner's portfolio from the command line, over HTTP (never the database):
// submit a CSV or an XLSX workbook (each sent as it is: the server reads it as the portal does) and
// follow it to the end, writing the results;
// or look at a batch, or download its results, later.
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { createFinca, FincaApiError, type Batch, type Finca } from "../index.js";
import { apiKeyOf } from "./credentials.js";
import type { HelpEntry } from "./help.js";

/** The fields a 422 names, after its detail. */
const details = (error: FincaApiError) => {
  const errors = error.problem?.errors?.map((e: { detail: string }) => e.detail).join("; ");
  return errors ? ` (${errors})` : "";
};

const POLL_MS = 2000;

export const BATCH_HELP: readonly HelpEntry[] = [
  {
    usage: "batch submit --file <refs.csv|refs.xlsx> [--name <name>] [--out <file>] [--format csv|xlsx|ndjson]",
    text: `Upload a portfolio, follow its progress (a bar on a terminal, plain lines otherwise) and write the
      results when it completes (default <file>.results.csv). The header row may sit below title rows; name its
      columns with --reference-column <header> and --external-id-column <header> when they are not
      cadastral_reference (or referencia_catastral, refcat) and external_id`,
  },
  { usage: "batch status <batch id>", text: "A batch's status and counts" },
  {
    usage: "batch results <batch id> [--out <file>] [--format csv|xlsx|ndjson]",
    text: "Download a batch's results (so far, while it runs)",
  },
];

/** A refusal of the command itself (exit status 2). */
export class UsageError extends Error {}

/** What a thrown value says: an Error's message, or the value itself as text. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A local file that cannot be read or written: the command's own failure, not the server's. */
class LocalFileError extends Error {}

/** A local file's failure (a node:fs error names its path; a network one does not), said as such. */
function fileProblem(error: unknown): string | null {
  if (!(error instanceof Error) || !("path" in error) || typeof error.path !== "string") return null;
  const { path: file, message } = error;
  const code = "code" in error ? error.code : undefined;
  if (code === "ENOENT") return `no such file or folder: ${file}`;
  if (code === "EACCES" || code === "EPERM") return `permission denied: ${file}`;
  if (code === "EISDIR") return `${file} is a folder, not a file`;
  return message;
}

/** The file to upload, checked before anything is sent: the server is not blamed for it. */
async function localFile(file: string): Promise<void> {
  const found = await stat(file).catch((error: unknown) => {
    throw new LocalFileError(fileProblem(error) ?? `cannot read ${file}`);
  });
  if (!found.isFile()) throw new LocalFileError(`${file} is a folder, not a file`);
}

interface Client {
  finca: Finca;
  base: string;
}

export async function clientOf(values: Record<string, unknown>): Promise<Client & { key: string }> {
  const key = await apiKeyOf(values);
  if (!key) throw new UsageError("--key (or FINCA_API_KEY, or finca login) is required");
  const base =
    (typeof values["base-url"] === "string" && values["base-url"]) || process.env.FINCA_URL || "http://localhost:3000";
  if (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol))
    throw new UsageError("--base-url must be an http(s) URL");
  return { finca: createFinca({ apiKey: key, baseUrl: base }), base, key };
}

/** The file as it is (the server reads CSV and XLSX alike), its format by its name. */
async function fileBody(file: string): Promise<{ body: Blob; format: "csv" | "xlsx"; digest: string }> {
  const bytes = await readFile(file);
  const format = /\.xlsx$/i.test(file) ? "xlsx" : "csv";
  return {
    body: new Blob([new Uint8Array(bytes)]),
    format,
    digest: createHash("sha256").update(bytes).digest("hex"),
  };
}

const text = (value: unknown) => (typeof value === "string" && value) || undefined;

const final = (b: Batch) => b.counts.total - b.counts.pending;

function progressLine(b: Batch): string {
  const c = b.counts;
  const parts = (
    ["enriched", "partially_enriched", "not_found", "invalid", "duplicate", "cancelled", "pending"] as const
  )
    .filter((k) => c[k])
    .map((k) => `${c[k]} ${k.replaceAll("_", " ")}`);
  return `${final(b)}/${c.total} final (${parts.join(", ")})`;
}

/** A bar on a terminal (one line rewritten); elsewhere a plain line whenever the counts change. */
function reporter() {
  const tty = process.stdout.isTTY;
  let last = "";
  return {
    show(b: Batch) {
      const line = progressLine(b);
      if (tty) {
        const width = 30;
        const filled = b.counts.total ? Math.round((final(b) / b.counts.total) * width) : width;
        process.stdout.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${line}\x1b[K`);
      } else if (line !== last) console.log(`${new Date().toISOString()}  ${b.status}  ${line}`);
      last = line;
    },
    end: () => tty && process.stdout.write("\n"),
  };
}

type ResultsFormat = "csv" | "xlsx" | "ndjson";

async function download(client: Client, id: string, out: string, format: ResultsFormat): Promise<void> {
  const results = await client.finca.batches.results(id, format);
  await pipeline(Readable.fromWeb(results as import("node:stream/web").ReadableStream), createWriteStream(out));
}

function formatOf(values: Record<string, unknown>): ResultsFormat {
  const format = values.format ?? "csv";
  if (format !== "csv" && format !== "xlsx" && format !== "ndjson")
    throw new UsageError("--format must be csv, xlsx or ndjson");
  return format;
}

async function submit(client: Client, values: Record<string, unknown>): Promise<void> {
  const file = typeof values.file === "string" ? values.file : "";
  if (!file) throw new UsageError("--file is required");
  const format = formatOf(values);
  const out = typeof values.out === "string" ? values.out : `${file.replace(/\.[^./]+$/, "")}.results.${format}`;
  const name = typeof values.name === "string" ? values.name : path.basename(file).replace(/\.[^.]+$/, "");
  await localFile(file);
  const { body, format: fileFormat, digest } = await fileBody(file);
  const referenceColumn = text(values["reference-column"]);
  const externalIdColumn = text(values["external-id-column"]);
  // The same file, name and columns make the same key: a retried upload answers the batch it created.
  const request = [digest, name, ...(referenceColumn || externalIdColumn ? [referenceColumn, externalIdColumn] : [])];
  const idempotencyKey = `finca-cli-${createHash("sha256").update(request.join("\n")).digest("hex").slice(0, 40)}`;
  const upload = { name, idempotencyKey, format: fileFormat, referenceColumn, externalIdColumn };
  const submission = await client.finca.batches.upload(body, upload);
  const id = submission.batch.batch_id;
  const { batch: accepted } = submission;
  console.log(
    `${submission.created ? "Submitted" : "Already submitted"}: batch ${id} (${accepted.counts.total} rows, ${accepted.counts.invalid} invalid)`,
  );
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  const progress = reporter();
  let batch: Batch;
  try {
    batch = await client.finca.batches.wait(id, {
      intervalMs: POLL_MS,
      onProgress: progress.show,
      signal: stop.signal,
    });
  } catch (error) {
    progress.end();
    if (!stop.signal.aborted) throw error;
    console.log(`Stopped following it; the batch goes on. Later: finca batch status ${id}`);
    return;
  } finally {
    process.off("SIGINT", onSignal);
  }
  progress.end();
  await download(client, id, out, format);
  console.log(`${batch.status === "cancelled" ? "Cancelled" : "Completed"}: ${progressLine(batch)}\nResults: ${out}`);
}

export async function batchCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      key: { type: "string" },
      "base-url": { type: "string" },
      file: { type: "string" },
      name: { type: "string" },
      out: { type: "string" },
      format: { type: "string" },
      "reference-column": { type: "string" },
      "external-id-column": { type: "string" },
    },
  });
  const [command, id] = positionals;
  const client = await clientOf(values);
  try {
    if (command === "submit") return await submit(client, values);
    if (!id || !["status", "results"].includes(command ?? ""))
      throw new UsageError("use batch submit, batch status <id> or batch results <id>");
    if (command === "status") {
      const batch = await client.finca.batches.get(id);
      console.log(`${batch.batch_id}  ${batch.name ?? ""}\n${batch.status}: ${progressLine(batch)}`);
      return;
    }
    const format = formatOf(values);
    const out = values.out ?? `batch-${id}.${format}`;
    await download(client, id, out, format);
    console.log(`Results: ${out}`);
  } catch (error) {
    // The server's refusal, said plainly; a network failure with where it tried.
    if (error instanceof FincaApiError)
      throw new Error(
        `the server answered ${error.status}: ${error.problem?.detail ?? error.message}${details(error)}`,
      );
    if (error instanceof UsageError || error instanceof LocalFileError) throw error;
    const problem = fileProblem(error);
    if (problem) throw new Error(problem);
    throw new Error(`could not reach ${client.base}: ${messageOf(error)}`);
  }
}
