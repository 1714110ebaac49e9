// `finca batch …`: a partner's portfolio from the command line, over HTTP (never the database):
// submit a CSV (or an XLSX workbook, sent as CSV) and follow it to the end, writing the results;
// or look at a batch, or download its results, later.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { stringify } from "csv-stringify/sync";
import { firstSheetRows } from "@/lib/spreadsheets";
import type { Batch } from "@/lib/domain";

export const BATCH_HELP = `  batch submit --file <refs.csv|refs.xlsx> [--name <name>] [--out <file>] [--format csv|ndjson]
                                                  Upload a portfolio, follow its progress (a bar on a
                                                  terminal, plain lines otherwise) and write the
                                                  results when it completes (default <file>.results.csv)
  batch status <batch id>                         A batch's status and counts
  batch results <batch id> [--out <file>] [--format csv|ndjson]
                                                  Download a batch's results (so far, while it runs)
                                  batch commands take --key (or FINCA_API_KEY) and --base-url (or
                                  FINCA_URL, else http://localhost:3000)`;

/** A refusal of the command itself (exit status 2). */
export class BatchUsageError extends Error {}

class ApiError extends Error {}

const API = "/api/v1/partner-api";
const POLL_MS = 2000;

interface Client {
  key: string;
  base: string;
}

function clientOf(values: Record<string, unknown>): Client {
  const key = (typeof values.key === "string" && values.key.trim()) || process.env.FINCA_API_KEY?.trim();
  if (!key) throw new BatchUsageError("--key (or FINCA_API_KEY) is required");
  const base = (typeof values["base-url"] === "string" && values["base-url"]) || process.env.FINCA_URL || "http://localhost:3000";
  if (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol)) throw new BatchUsageError("--base-url must be an http(s) URL");
  return { key, base };
}

/** A request to the API (any body a Blob, sent again as is); a problem+json answer becomes an ApiError, 429s are waited out. */
async function call(client: Client, path: string, init: Omit<RequestInit, "body"> & { body?: Blob } = {}): Promise<Response> {
  for (;;) {
    const res = await fetch(new URL(API + path, client.base), { ...init, headers: { "X-API-Key": client.key, ...init.headers } });
    if (res.status === 429) {
      await sleep(Number(res.headers.get("retry-after") ?? 1) * 1000);
      continue;
    }
    if (res.ok) return res;
    const problem = (await res.json().catch(() => ({}))) as { detail?: string; errors?: { detail: string }[] };
    const details = problem.errors?.map((e) => e.detail).join("; ");
    throw new ApiError(`the server answered ${res.status}: ${problem.detail ?? res.statusText}${details ? ` (${details})` : ""}`);
  }
}

/** The file's bytes as the API takes them: a CSV as it is; a workbook's first sheet as CSV. */
async function csvBody(file: string): Promise<{ body: Blob; digest: string }> {
  let body: Buffer;
  if (/\.xlsx$/i.test(file)) {
    const lines: string[] = [];
    for await (const row of firstSheetRows(createReadStream(file))) lines.push(stringify([row.values], { record_delimiter: "\r\n" }));
    body = Buffer.from(lines.join(""));
  } else body = await readFile(file);
  return { body: new Blob([new Uint8Array(body)]), digest: createHash("sha256").update(body).digest("hex") };
}

const final = (b: Batch) => b.counts.total - b.counts.pending;

function progressLine(b: Batch): string {
  const c = b.counts;
  const parts = (["enriched", "partially_enriched", "not_found", "invalid", "duplicate", "cancelled", "pending"] as const)
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

async function download(client: Client, id: string, out: string, format: "csv" | "ndjson"): Promise<void> {
  const accept = format === "ndjson" ? "application/x-ndjson" : "text/csv";
  const res = await call(client, `/batches/${id}/results`, { headers: { Accept: accept } });
  await pipeline(Readable.fromWeb(res.body as import("node:stream/web").ReadableStream), createWriteStream(out));
}

function formatOf(values: Record<string, unknown>): "csv" | "ndjson" {
  const format = values.format ?? "csv";
  if (format !== "csv" && format !== "ndjson") throw new BatchUsageError("--format must be csv or ndjson");
  return format;
}

async function submit(client: Client, values: Record<string, unknown>): Promise<void> {
  const file = typeof values.file === "string" ? values.file : "";
  if (!file) throw new BatchUsageError("--file is required");
  const format = formatOf(values);
  const out = (values.out as string | undefined) ?? `${file.replace(/\.[^./]+$/, "")}.results.${format}`;
  const name = (values.name as string | undefined) ?? path.basename(file).replace(/\.[^.]+$/, "");
  const { body, digest } = await csvBody(file);
  // The same file and name make the same key: a retried upload answers the batch it created.
  const idempotencyKey = `finca-cli-${createHash("sha256").update(`${digest}\n${name}`).digest("hex").slice(0, 40)}`;
  const res = await call(client, `/batches?${new URLSearchParams({ name })}`, {
    method: "POST",
    headers: { "Content-Type": "text/csv", "Idempotency-Key": idempotencyKey },
    body,
  });
  let batch = (await res.json()) as Batch;
  console.log(`${res.status === 200 ? "Already submitted" : "Submitted"}: batch ${batch.batch_id} (${batch.counts.total} rows, ${batch.counts.invalid} invalid)`);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  const progress = reporter();
  try {
    while (!batch.completed_at) {
      progress.show(batch);
      await sleep(POLL_MS, undefined, { signal: stop.signal });
      batch = (await (await call(client, `/batches/${batch.batch_id}`)).json()) as Batch;
    }
    progress.show(batch);
  } catch (error) {
    progress.end();
    if (!stop.signal.aborted) throw error;
    console.log(`Stopped following it; the batch goes on. Later: finca batch status ${batch.batch_id}`);
    return;
  } finally {
    process.off("SIGINT", onSignal);
  }
  progress.end();
  await download(client, batch.batch_id, out, format);
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
    },
  });
  const [command, id] = positionals;
  const client = clientOf(values);
  try {
    if (command === "submit") return await submit(client, values);
    if (!id || !["status", "results"].includes(command ?? "")) throw new BatchUsageError("use batch submit, batch status <id> or batch results <id>");
    if (command === "status") {
      const batch = (await (await call(client, `/batches/${encodeURIComponent(id)}`)).json()) as Batch;
      console.log(`${batch.batch_id}  ${batch.name ?? ""}\n${batch.status}: ${progressLine(batch)}`);
      return;
    }
    const format = formatOf(values);
    const out = (values.out as string | undefined) ?? `batch-${id}.${format}`;
    await download(client, encodeURIComponent(id), out, format);
    console.log(`Results: ${out}`);
  } catch (error) {
    // The server's refusal, said plainly (a network failure keeps its own message).
    if (error instanceof ApiError || error instanceof BatchUsageError) throw error;
    throw new ApiError(`could not reach ${client.base}: ${(error as Error).message}`);
  }
}
