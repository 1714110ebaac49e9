// bench/portal: the portal while a portfolio runs, on the README's default set-up (`npm start`'s
// server with no DATABASE_URL: the embedded PostgreSQL of a new data folder), as a new partner
// meets it. A partner signs up in Chromium; the portal's pages (dashboard, properties, portfolios)
// are fetched one after another with its session for `--seconds` while idle, then a `--items`
// portfolio is uploaded through the Portfolios page (sandbox registers answering in 50 ms) and the
// same pages are fetched for as long again while it runs, and once more after it is done (the same
// data, no batch: what the pages cost with 2,000 more properties, apart from the batch's running).
// Reported: each phase's p50/p99, the loaded p99 against 1 s and against 3× the idle p99 of the
// same run, and against the p99 after, the upload's hand-over (the
// click on Register to the portfolio's page) and the progress its page showed then and later; and
// the server's start to ready on the new folder (initdb and every migration) and on it again.
//   npx tsx bench/portal.ts [--items 2000] [--seconds 20]
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { chromium } from "@playwright/test";
import { stopGroup } from "@/test/support/processes";
import { buildWhenStale } from "../scripts/build.mjs";
import {
  benchOptions,
  benchReference,
  freePort,
  percentile,
  READY_PATH,
  round,
  sleep,
  startServer,
  writeResult,
} from "./lib";

const { items, seconds } = benchOptions({ items: 2000, seconds: 20 });
const PAGES = ["/dashboard", "/properties", "/portfolios"];

/** Fetches the pages in turn for `ms` (or until `done`), with the session's cookies: each answer's latency (ms). */
async function pagesFor(base: string, cookie: string, ms: number, done = () => false): Promise<number[]> {
  const latencies: number[] = [];
  const until = Date.now() + ms;
  for (let i = 0; Date.now() < until && !done(); i++) {
    const started = performance.now();
    const res = await fetch(`${base}${PAGES[i % PAGES.length]}`, { headers: { cookie }, redirect: "manual" });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${PAGES[i % PAGES.length]} answered ${res.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const summary = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { requests: sorted.length, p50_ms: round(percentile(sorted, 50)), p99_ms: round(percentile(sorted, 99)) };
};

// npm start's own server serves Next.js's build: made first when missing or stale, as npm start does.
await buildWhenStale({ ...process.env, NEXT_TELEMETRY_DISABLED: "1" });
const folder = await mkdtemp(path.join(tmpdir(), "finca-bench-portal-"));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const serverEnv = {
  PORT: String(port),
  FINCA_DATA_DIR: folder,
  DATABASE_URL: "",
  AUTH_SECRET: "bench-portal",
  AUTH_TRUST_HOST: "true",
  SANDBOX_LATENCY_MS: "50",
  LOG_LEVEL: "warn",
};
/** npm start's server from its start to ready (`/api/ready`: database, migrations, queue), in ms. */
async function start(): Promise<[ChildProcess, number]> {
  const started = performance.now();
  const child = await startServer("server/main.ts", serverEnv, `${base}${READY_PATH}`);
  return [child, round(performance.now() - started, 0)];
}
// The first start initialises the folder (initdb, every migration); the server is started again on
// it at the end for a later start's figure.
let [server, firstStartMs] = await start();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage({ baseURL: base });
  await page.goto("/sign-up");
  await page.getByLabel("Organisation").fill("Bench Portal");
  await page.getByLabel("Work email").fill("bench@portal.test");
  await page.getByLabel("Password").fill("bench-portal-password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/dashboard$/);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");

  // Each page's first renders (code loaded, caches filled) are not what a partner waits for later.
  for (const name of PAGES)
    for (let i = 0; i < 3; i++) await (await fetch(`${base}${name}`, { headers: { cookie } })).text();
  const idle = await pagesFor(base, cookie, seconds * 1000);

  const csv = `cadastral_reference\n${Array.from({ length: items }, (_, i) => benchReference(i + 1, "PT0624N")).join("\n")}\n`;
  await page.goto("/portfolios");
  await page
    .getByLabel("Choose a file")
    .setInputFiles({ name: "book.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  const register = page.getByRole("button", { name: `Register ${items.toLocaleString("en")} in test mode` });
  await register.waitFor();
  const clicked = performance.now();
  await register.click();
  await page.waitForURL(/\/portfolios\/[0-9a-f-]{36}$/);
  const handoverMs = round(performance.now() - clicked);
  const progress = async () => Number(await page.getByRole("progressbar").getAttribute("aria-valuenow"));
  const atHandover = await progress();
  // The partner watches the portfolio's page meanwhile, reloading it every second: the server renders
  // it each time, but the rendering in a browser is the partner's machine's work, not the server's.
  // Headless Chromium on this machine's two cores took 50–80 % of a core doing it, more than the
  // server or the worker, so the page is fetched as HTML, its progress bar's value read from it.
  const portfolioUrl = page.url();
  await page.close();
  const watched = async () => {
    const html = await (await fetch(portfolioUrl, { headers: { cookie } })).text();
    const value = /role="progressbar"[^>]*aria-valuenow="(\d+)"|aria-valuenow="(\d+)"[^>]*role="progressbar"/.exec(
      html,
    );
    if (!value) throw new Error("the portfolio's page shows no progress bar");
    return Number(value[1] ?? value[2]);
  };

  let final = false;
  const watching = (async () => {
    while (!final) {
      await sleep(1000);
      final = (await watched()) === items;
    }
  })();
  const loaded = await pagesFor(base, cookie, seconds * 1000, () => final);
  const batchRan = final ? "finished within the phase" : "still running at the phase's end";
  await watching;
  const after = await watched();
  const afterBatch = await pagesFor(base, cookie, seconds * 1000);

  const idleStats = summary(idle);
  const loadedStats = summary(loaded);
  const result = {
    settings: {
      items,
      seconds,
      pages: PAGES,
      database: "embedded PostgreSQL (new data folder)",
      sandbox_latency_ms: 50,
    },
    idle: idleStats,
    while_batch_runs: loadedStats,
    after_batch: summary(afterBatch),
    ratio_p99_vs_idle: round(loadedStats.p99_ms / idleStats.p99_ms, 2),
    ratio_p99_vs_after: round(loadedStats.p99_ms / summary(afterBatch).p99_ms, 2),
    meets: {
      p99_under_1s: loadedStats.p99_ms < 1000,
      within_3x_idle_p99: loadedStats.p99_ms <= 3 * idleStats.p99_ms,
    },
    batch: batchRan,
    upload: { handover_ms: handoverMs, items_final_at_handover: atHandover, items_final_after: after, of: items },
    start_to_ready_ms: { new_folder: firstStartMs, later: 0 },
    // The machine is shared: its load (1 min) at the end of the measured phases, beside the figures.
    machine_load_average: round(loadavg()[0]!, 2),
  };
  await stopGroup(server, 60_000);
  [server, result.start_to_ready_ms.later] = await start();
  // The portfolio was accepted and is being worked through: anything else is a broken bench, not a slow one.
  if (after <= 0 && seconds >= 5) throw new Error(`the portfolio's progress did not move from 0 in ${seconds} s`);
  console.log(JSON.stringify(result, null, 2));
  console.log("written", await writeResult("portal", result));
} finally {
  await browser.close();
  await stopGroup(server, 60_000);
  await rm(folder, { recursive: true, force: true });
}
