// Log lines on stdout are held until LOG_BUFFER_BYTES of them wait (a write per some kilobytes, not
// per line), go out within a quarter second when fewer wait, and are all written, the write in flight
// too, when the process stops as a signalled server does (closeLogs, server/lifecycle.ts).
import { afterEach, expect, it } from "vitest";
import { runNode, startNode, stopAll } from "../support/processes";
import { eventually } from "../support/wait";

afterEach(stopAll);

const CHILD = "test/support/log-lines.ts";
const numbered = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { line: number }).line);
const counted = (stderr: string, name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(stderr)?.[1]);

it("writes 200 lines in writes of at least 4 KiB but the last, all of them, in order, at a stop", async () => {
  const run = await runNode(CHILD, ["4096", "200", "burst"], { timeoutMs: 60_000 });
  expect(run.code).toBe(0);
  expect(numbered(run.stdout)).toEqual([...Array(200).keys()]);
  // About 140 bytes a line: 28 KiB, where a write a line would make 200 writes.
  expect(counted(run.stderr, "writes")).toBeLessThanOrEqual(Math.floor(run.stdout.length / 4096) + 1);
  expect(counted(run.stderr, "immediate")).toBeLessThan(200);
});

it("begins a line's write as it is logged with LOG_BUFFER_BYTES=0, and a line held otherwise", async () => {
  const unheld = await runNode(CHILD, ["0", "50", "paced"], { timeoutMs: 60_000 });
  expect(numbered(unheld.stdout)).toEqual([...Array(50).keys()]);
  expect([counted(unheld.stderr, "writes"), counted(unheld.stderr, "immediate")]).toEqual([50, 50]);
  const held = await runNode(CHILD, ["4096", "5", "paced"], { timeoutMs: 60_000 });
  expect(numbered(held.stdout)).toEqual([0, 1, 2, 3, 4]);
  expect(counted(held.stderr, "immediate")).toBe(0);
});

it("exits within its bound when stdout is a pipe nobody reads, what it could not write dropped", async () => {
  const child = startNode(CHILD, ["4096", "20000", "burst", "500"], { stdio: ["ignore", "pipe", "pipe"] });
  // Never read: the pipe fills and every write waits.
  child.stdout!.pause();
  const code = await new Promise((resolve) => child.once("exit", resolve));
  expect(code).toBe(0);
});

it("writes lines that do not fill the buffer while the process runs on", async () => {
  const child = startNode(CHILD, ["4096", "3", "stay"], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  await eventually("the held lines are written", () => stdout.split("\n").filter(Boolean).length === 3);
  expect(numbered(stdout)).toEqual([0, 1, 2]);
  expect(child.exitCode).toBeNull();
  child.stdin!.end();
});
