// bench/abuse: one partner cannot stall the others. Partner A sends, for the whole run, the worst
// files it is allowed, from `--attackers` loops at once, each file as soon as the last one was
// answered: CSV bodies to POST /batches (rows at the column limit; rows at the row limit) and to the
// portal's preview, and workbooks to the portal's preview (a shared-strings bomb past the reader's
// heap cap, a workbook whose second sheet unpacks to `--sheet-mb`, one whose first sheet does). All
// of it counts on A's write budget (RATE_LIMIT_WRITES), as in production. Meanwhile partner B reads
// (GET /properties, open loop at `--rate`/s): its p99 against B's p99 alone on the same server in
// the same run (at most `--max-ratio` times it), and the server's RSS sampled every 250 ms (peak
// at most `--max-rss-mib`); A's requests unanswered when B's phase ends are given up (on a loaded
// machine the files at nice 19 take minutes). The phases alternate for `--rounds` rounds (B alone,
// then under attack, each `--seconds` / rounds long, a pause between them for the server to settle)
// and B's latencies are pooled per phase: other work on the machine that comes and goes then
// weighs on both phases alike instead of on whichever ran while it did. A sends from a process of
// its own (bench/abuse-attacker.ts), as from another machine: in this one's event loop, its 10 MB
// sends delayed B's reads before they left. The server is bench/upload-server.ts: the lean API
// server with the portal's preview command in the same process.
//   npx tsx bench/abuse.ts [--seconds 20] [--rounds 2] [--rate 50] [--attackers 4] [--bomb-mb 600] [--sheet-mb 900]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { and, between, eq, or } from "drizzle-orm";
import JSZip from "jszip";
import { loadConfig } from "@/lib/config";
import { openDatabase, schema } from "@/lib/db";
import { excel } from "@/lib/spreadsheets";
import { startNode, stopGroup } from "@/test/support/processes";
import {
  benchOptions,
  benchReference,
  CREATE_PATH,
  freePort,
  freshDatabase,
  load,
  percentile,
  READY_PATH,
  round,
  rssMiB,
  seedPartnerKeys,
  sleep,
  startServer,
  writeResult,
  type LoadResult,
} from "./lib";

const values = benchOptions({
  seconds: 20,
  rounds: 2,
  // Only the attacks whose name holds this (e.g. "xlsx", "csv", "api", "preview"): to tell their costs apart.
  only: "",
  rate: 50,
  attackers: 4,
  "bomb-mb": 600,
  "sheet-mb": 900,
  "csv-mb": 10,
  "max-ratio": 2,
  "max-rss-mib": 1024,
});
const { seconds, rate, attackers } = values;
const rounds = Math.max(1, values.rounds);
const MB = 1024 * 1024;
const limits = loadConfig({});
const NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

// ---- the files: each as large as the byte cap allows, each at a limit ----

/** Rows of `line` up to `mb` MiB. */
const csvOf = (header: string, line: string, mb: number) =>
  Buffer.from(header + line.repeat(Math.max(1, Math.floor((mb * MB - header.length) / line.length))));

/** XML of about `mb` MiB: `open`, then `item(i)` until the size is reached, then `close` (streamed). */
function bigXml(mb: number, open: string, item: (i: number) => string, close: string): Readable {
  return Readable.from(
    (function* () {
      yield open;
      for (let i = 0, size = 0; size < mb * MB; i++) {
        const chunk = Array.from({ length: 64 }, (_, j) => item(i * 64 + j)).join("");
        size += chunk.length;
        yield chunk;
      }
      yield close;
    })(),
  );
}

/** Rows of one inline string of 30,000 characters: a sheet of `mb` MiB. */
const bigSheet = (mb: number) =>
  bigXml(
    mb,
    `<worksheet xmlns="${NS}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>cadastral_reference</t></is></c></row>`,
    (i) => `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>${"x".repeat(30_000)}</t></is></c></row>`,
    "</sheetData></worksheet>",
  );

/**
 * A workbook (exceljs writes its frame: two sheets, a portfolio's header and one row each) with
 * entries replaced by streams, in Excel's order (the workbook first), deflated.
 */
async function workbook(replace: Record<string, () => Readable>): Promise<Buffer> {
  const ExcelJS = await excel();
  const book = new ExcelJS.Workbook();
  for (const name of ["Portfolio", "Notes"])
    book.addWorksheet(name).addRows([["cadastral_reference"], [benchReference(1)]]);
  const frame = await JSZip.loadAsync(await book.xlsx.writeBuffer());
  const zip = new JSZip();
  zip.file("xl/workbook.xml", await frame.file("xl/workbook.xml")!.async("nodebuffer"));
  for (const [name, file] of Object.entries(frame.files))
    if (!file.dir && name !== "xl/workbook.xml" && !replace[name]) zip.file(name, await file.async("nodebuffer"));
  for (const [name, stream] of Object.entries(replace)) zip.file(name, stream());
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE", compressionOptions: { level: 6 } });
}

console.log("writing the files...");
const ref = benchReference(7);
const files = {
  // 999 empty fields after the reference: one under the column limit, the costliest row per byte.
  csvColumns: csvOf("cadastral_reference\n", `${ref}${",".repeat(limits.BATCH_MAX_COLUMNS - 1)}\n`, values["csv-mb"]),
  // Two fields at the field limit: a row just under the row limit.
  csvLongRows: csvOf(
    "cadastral_reference,a,b\n",
    `${ref},${"a".repeat(limits.BATCH_MAX_FIELD_CHARS)},${"b".repeat(limits.BATCH_MAX_ROW_CHARS - limits.BATCH_MAX_FIELD_CHARS - 40)}\n`,
    values["csv-mb"],
  ),
  // Distinct strings of 30,000 characters: the reader caches them all, past its heap cap.
  xlsxBomb: await workbook({
    "xl/sharedStrings.xml": () =>
      bigXml(values["bomb-mb"], `<sst xmlns="${NS}">`, (i) => `<si><t>${i}${"s".repeat(30_000)}</t></si>`, "</sst>"),
  }),
  xlsxSecondSheet: await workbook({ "xl/worksheets/sheet2.xml": () => bigSheet(values["sheet-mb"]) }),
  xlsxFirstSheet: await workbook({ "xl/worksheets/sheet1.xml": () => bigSheet(values["sheet-mb"]) }),
};
const sizes = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, round(v.length / MB, 2)]));
console.log("file sizes (MiB):", JSON.stringify(sizes));

// ---- the server, the partners ----

const db = await freshDatabase("finca_bench_abuse");
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const {
  keys: [attackerKey, readerKey],
  partnerIds: [attackerId, readerId],
} = await seedPartnerKeys(db.url, 2);
const server = await startServer(
  "bench/upload-server.ts",
  { DATABASE_URL: db.url, PORT: String(port), FINCA_WORKERS: "0", REQUEST_LOGS: "1" },
  `${url}${READY_PATH}`,
);

// A's files in a folder of their own, for A's process (bench/abuse-attacker.ts).
const filesDir = mkdtempSync(path.join(tmpdir(), "finca-abuse-"));
for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(filesDir, name), bytes);

/** What A's requests got, by file, over every round: statuses counted, and the slowest answer. */
const outcomes: Record<string, Record<string, number>> = {};
const slowestMs: Record<string, number> = {};

/**
 * A's attack, from a process of its own (as another machine's), for `ms` from when it is ready:
 * each of its loops sends the next file once the last was answered; what is still unanswered at the
 * end is given up, as a client that waited long enough does, and the server ends its reading.
 * Resolves to its end once it is sending.
 */
async function attack(ms: number): Promise<{ done: Promise<void> }> {
  const config = { url, key: attackerKey, partnerId: attackerId, dir: filesDir, attackers, only: values.only, ms };
  const child = startNode("bench/abuse-attacker.ts", [], { env: { ABUSE_ATTACK: JSON.stringify(config) } });
  let out = "";
  child.stderr!.on("data", (d) => process.stderr.write(d));
  const ended = new Promise<number | null>((resolve) => child.on("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.startsWith("ready\n")) resolve();
    });
    void ended.then((code) => reject(new Error(`partner A's process ended (${code}) before it was ready`)));
  });
  const done = ended.then((code) => {
    if (code !== 0) throw new Error(`partner A's process ended with ${code}`);
    const got = JSON.parse(out.slice("ready\n".length)) as { outcomes: typeof outcomes; slowestMs: typeof slowestMs };
    for (const [name, statuses] of Object.entries(got.outcomes))
      for (const [status, n] of Object.entries(statuses))
        (outcomes[name] ??= {})[status] = (outcomes[name][status] ?? 0) + n;
    for (const [name, slowest] of Object.entries(got.slowestMs))
      slowestMs[name] = Math.max(slowestMs[name] ?? 0, slowest);
  });
  return { done };
}

/** Partner B's reads for one round (open loop), each latency added to `into`. */
const reads = (into: number[]) =>
  load({
    url,
    seconds: seconds / rounds,
    concurrency: 256,
    rate,
    request: () => ({ method: "GET", path: `${CREATE_PATH}?limit=10`, headers: { "X-API-Key": readerKey! } }),
    onLatency: (_, ms) => into.push(ms),
  });

/**
 * The server's event loop delay since the last scrape (prom-client's default metrics reset their
 * histogram on each): its p99 and max, in ms.
 */
async function loopDelay(): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) => round(Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]) * 1000);
  return { p99: read("nodejs_eventloop_lag_p99_seconds"), max: read("nodejs_eventloop_lag_max_seconds") };
}

/** RSS of the server, every 250 ms while `during` runs: its peak (MiB). */
async function peakRss<T>(during: Promise<T>): Promise<{ result: T; peak: number; start: number }> {
  const start = rssMiB(server.pid!);
  let peak = start;
  let done = false;
  const result = during.finally(() => (done = true));
  while (!done) {
    peak = Math.max(peak, rssMiB(server.pid!));
    await sleep(250);
  }
  return { result: await result, peak, start };
}

type Phase = "alone" | "attacked";
type Delay = { p99: number; max: number };

/**
 * B's reads as the server timed them (its request logs, written on its way out): from the request's
 * arrival to its answer, per phase (its rounds pooled). Against the client's figures: what B waited
 * for outside the server's handling (the network's queues, the client's own turns).
 */
async function serverTimes(windows: Record<Phase, { from: number; to: number }[]>) {
  const database = await openDatabase({ url: db.url, postgres: { poolSize: 1 } });
  const { requestLogs: r } = schema;
  try {
    const times = async (phase: { from: number; to: number }[]) => {
      const rows = await database.db
        .select({ ms: r.durationMs })
        .from(r)
        .where(
          and(
            eq(r.partnerId, readerId!),
            eq(r.method, "GET"),
            or(...phase.map(({ from, to }) => between(r.at, new Date(from), new Date(to)))),
          ),
        )
        .orderBy(r.durationMs);
      const sorted = rows.map((row) => row.ms);
      return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), requests: sorted.length };
    };
    return { alone: await times(windows.alone), attacked: await times(windows.attacked) };
  } finally {
    await database.close();
  }
}

/** Percentiles of a phase's pooled latencies, and its rounds' own p99s. */
function summary(latencies: number[], results: LoadResult[]) {
  const sorted = [...latencies].sort((x, y) => x - y);
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const statuses: Record<string, number> = {};
  for (const r of results) for (const [k, n] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
  return {
    requests,
    perSecond: round(requests / seconds),
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    p999: round(percentile(sorted, 99.9)),
    roundsP99: results.map((r) => r.p99),
    statuses,
    errorRate: round(results.reduce((sum, r) => sum + r.errorRate * r.requests, 0) / Math.max(1, requests), 4),
  };
}

// Other work on the machine moves every figure: its load average is written beside them.
const loadBefore = round(loadavg()[0]!, 2);
const latencies: Record<Phase, number[]> = { alone: [], attacked: [] };
const results: Record<Phase, LoadResult[]> = { alone: [], attacked: [] };
const windows: Record<Phase, { from: number; to: number }[]> = { alone: [], attacked: [] };
const delays: Record<Phase, Delay[]> = { alone: [], attacked: [] };
const peaks: Record<Phase, number> = { alone: 0, attacked: 0 };
const rssStart = rssMiB(server.pid!);
let serverSide: Awaited<ReturnType<typeof serverTimes>>;

/** One phase's round: B's reads (with `alongside`, A's attack, started a second before them). */
async function measureRound(phase: Phase, alongside?: typeof attack) {
  const roundSeconds = seconds / rounds;
  await loopDelay();
  const attackRun = alongside && (await alongside(roundSeconds * 1000 + 1000)).done;
  if (attackRun) await sleep(1000); // the attack under way before B's measured reads begin
  const window = { from: Date.now(), to: 0 };
  const bRead = reads(latencies[phase]).finally(() => (window.to = Date.now()));
  const during = await peakRss(Promise.all([bRead, attackRun]));
  results[phase].push(during.result[0]);
  windows[phase].push(window);
  peaks[phase] = Math.max(peaks[phase], during.peak);
  delays[phase].push(await loopDelay());
}

try {
  // B's properties to list, then a warm-up of its reads.
  for (let i = 0; i < 10; i++)
    await fetch(`${url}${CREATE_PATH}`, {
      method: "POST",
      headers: { "X-API-Key": readerKey!, "Content-Type": "application/json" },
      body: JSON.stringify({ cadastral_reference: benchReference(100 + i) }),
    }).then((r) => r.arrayBuffer());
  await load({
    ...{ url, concurrency: 256, rate },
    seconds: Math.min(3, seconds),
    request: () => ({ method: "GET", path: `${CREATE_PATH}?limit=10`, headers: { "X-API-Key": readerKey! } }),
  });
  // The first files start the reader threads and load their parsers (once per process, not what a
  // partner meets later): an attack of a few seconds, not measured, before the rounds.
  await (await attack(Math.min(3, seconds) * 1000)).done;
  for (const name of Object.keys(outcomes)) delete outcomes[name];
  for (const name of Object.keys(slowestMs)) delete slowestMs[name];
  await sleep(Math.min(3000, (seconds / rounds) * 300));
  for (let r = 1; r <= rounds; r++) {
    console.log(`round ${r}/${rounds}: partner B reads alone for ${round(seconds / rounds)} s at ${rate}/s...`);
    await measureRound("alone");
    console.log(`round ${r}/${rounds}: partner A's files from ${attackers} loops, partner B reads meanwhile...`);
    await measureRound("attacked", attack);
    // A's given-up files end their reading; the next round starts on a settled server.
    await sleep(Math.min(3000, (seconds / rounds) * 300));
  }
  await stopGroup(server);
  serverSide = await serverTimes(windows);
} finally {
  await stopGroup(server);
  await db.drop();
  rmSync(filesDir, { recursive: true, force: true });
}

const baseline = summary(latencies.alone, results.alone);
const attacked = summary(latencies.attacked, results.attacked);
const worst = (phase: Phase): Delay => ({
  p99: Math.max(...delays[phase].map((d) => d.p99)),
  max: Math.max(...delays[phase].map((d) => d.max)),
});
const delay = { alone: worst("alone"), attacked: worst("attacked") };
const rss = { start: rssStart, baselinePeak: peaks.alone, peak: peaks.attacked };
const attackResult = { outcomes, slowestMs };
const ratio = round(attacked.p99 / baseline.p99, 2);
const problems: string[] = [];
if (ratio > values["max-ratio"])
  problems.push(`B's p99 ${attacked.p99} ms is ${ratio}× its baseline ${baseline.p99} ms`);
if (rss.peak > values["max-rss-mib"]) problems.push(`server RSS peaked at ${rss.peak} MiB`);
if (attacked.errorRate) problems.push(`B's reads failed: ${JSON.stringify(attacked.statuses)}`);
const verdict = problems.length ? "fail" : "pass";
console.log(
  `partner B alone:       p50 ${baseline.p50} ms  p99 ${baseline.p99} ms  p99.9 ${baseline.p999} ms  ${baseline.perSecond} req/s\n` +
    `partner B, A attacking: p50 ${attacked.p50} ms  p99 ${attacked.p99} ms  p99.9 ${attacked.p999} ms  ${attacked.perSecond} req/s\n` +
    `p99 ratio ${ratio} (at most ${values["max-ratio"]}), p50 ratio ${round(attacked.p50 / baseline.p50, 2)}; ` +
    `each round's p99: alone ${baseline.roundsP99.join(", ")} ms, under attack ${attacked.roundsP99.join(", ")} ms\n` +
    `B's reads as the server timed them: p50 ${serverSide.alone.p50} ms, p99 ${serverSide.alone.p99} ms alone; ` +
    `p50 ${serverSide.attacked.p50} ms, p99 ${serverSide.attacked.p99} ms under attack\n` +
    `server event loop delay: p99 ${delay.alone.p99} ms, max ${delay.alone.max} ms alone; ` +
    `p99 ${delay.attacked.p99} ms, max ${delay.attacked.max} ms under attack\n` +
    `server RSS: ${rss.start} MiB at the start, peak ${rss.baselinePeak} MiB alone, ${rss.peak} MiB under attack (at most ${values["max-rss-mib"]})\n` +
    `A's files: ${JSON.stringify(attackResult.outcomes)}\nA's slowest answers (ms): ${JSON.stringify(attackResult.slowestMs)}\n` +
    `the machine's load average (1 min): ${loadBefore} before, ${round(loadavg()[0]!, 2)} after\n` +
    `${verdict}${problems.length ? `: ${problems.join("; ")}` : ""}`,
);
const settings = { seconds, rounds, rate, attackers, bombMb: values["bomb-mb"], sheetMb: values["sheet-mb"] };
console.log(
  "written",
  await writeResult("abuse", {
    settings,
    fileSizesMiB: sizes,
    baseline,
    attacked,
    ratio,
    rss,
    eventLoopDelayMs: delay,
    serverSideMs: serverSide,
    machineLoadAverage: { before: loadBefore, after: round(loadavg()[0]!, 2) },
    attack: attackResult,
    verdict,
    problems,
  }),
);
process.exit(verdict === "pass" ? 0 : 1);
