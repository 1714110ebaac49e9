// For bench/abuse: partner A, in a process of its own (as it is another machine in production), so
// that the sending of A's files takes nothing from the event loop that sends and times partner B's
// reads. Given in ABUSE_ATTACK (JSON): the server's url, A's key and partner id, the folder with the
// files, how many loops, the attacks to run (names holding `only`) and for how long (`ms`, from when
// it says "ready": then what is still unanswered is given up). Prints what A's requests got.
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { round } from "./lib";

const given = JSON.parse(process.env.ABUSE_ATTACK ?? "{}") as {
  url: string;
  key: string;
  partnerId: string;
  dir: string;
  attackers: number;
  only: string;
  ms: number;
};
const target = new URL(given.url);
const file = (name: string) => readFileSync(path.join(given.dir, name));
const givenUp = new AbortController();

/** One POST of a whole body; its status ("error:…" when the connection failed, "given up") and time. */
function post(pathname: string, headers: Record<string, string>, body: Buffer) {
  const started = performance.now();
  return new Promise<{ status: string; ms: number }>((resolve) => {
    const req = http.request(
      {
        ...{ host: target.hostname, port: target.port, method: "POST", path: pathname, signal: givenUp.signal },
        headers: { ...headers, "Content-Length": body.length },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: String(res.statusCode), ms: performance.now() - started }));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) =>
      resolve({ status: givenUp.signal.aborted ? "given up" : `error:${e.code}`, ms: performance.now() - started }),
    );
    req.end(body);
  });
}

const api = (name: string) => {
  const body = file(name);
  return () => post("/api/v1/partner-api/batches", { "X-API-Key": given.key, "Content-Type": "text/csv" }, body);
};
const preview = (format: "csv" | "xlsx", name: string) => {
  const body = file(name);
  return () => post(`/bench/preview?format=${format}`, { "X-Bench-Partner": given.partnerId }, body);
};
// In turn, the workbooks apart: A may have one read at a time, the next waits its turn.
const attacks = (
  [
    ["xlsx_bomb_preview", () => preview("xlsx", "xlsxBomb")],
    ["csv_columns_api", () => api("csvColumns")],
    ["csv_long_rows_preview", () => preview("csv", "csvLongRows")],
    ["xlsx_first_sheet_preview", () => preview("xlsx", "xlsxFirstSheet")],
    ["csv_long_rows_api", () => api("csvLongRows")],
    ["csv_columns_preview", () => preview("csv", "csvColumns")],
    ["xlsx_second_sheet_preview", () => preview("xlsx", "xlsxSecondSheet")],
  ] as const
)
  .filter(([name]) => name.includes(given.only))
  .map(([name, make]) => [name, make()] as const);
if (!attacks.length) throw new Error(`no attack's name holds "${given.only}"`);

const until = Date.now() + given.ms;
setTimeout(() => givenUp.abort(), given.ms).unref();
process.stdout.write("ready\n");
const outcomes: Record<string, Record<string, number>> = {};
const slowestMs: Record<string, number> = {};
let next = 0;
await Promise.all(
  Array.from({ length: given.attackers }, async () => {
    while (Date.now() < until && !givenUp.signal.aborted) {
      const [name, send] = attacks[next++ % attacks.length]!;
      const { status, ms } = await send();
      outcomes[name] ??= {};
      outcomes[name][status] = (outcomes[name][status] ?? 0) + 1;
      slowestMs[name] = round(Math.max(slowestMs[name] ?? 0, ms));
    }
  }),
);
process.stdout.write(JSON.stringify({ outcomes, slowestMs }));
