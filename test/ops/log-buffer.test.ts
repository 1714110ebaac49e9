// Log lines on stdout are held until LOG_BUFFER_BYTES of them wait (a write per some kilobytes, not
// per line), go out within a quarter second when fewer wait, and are all written when the process
// exits at once.
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
const writes = (stderr: string) => Number(/writes=(\d+)/.exec(stderr)?.[1]);

it("writes 200 lines in writes of up to 4 KiB, all of them, in order, when the process exits at once", async () => {
  const run = await runNode(CHILD, ["4096", "200", "exit"], { timeoutMs: 60_000 });
  expect(run.code).toBe(0);
  expect(numbered(run.stdout)).toEqual([...Array(200).keys()]);
  // About 140 bytes a line: 28 KiB in 4 KiB writes, where a write a line would make 200.
  expect(writes(run.stderr)).toBeLessThanOrEqual(Math.ceil(run.stdout.length / 4096) + 1);
});

it("writes each line at once with LOG_BUFFER_BYTES=0", async () => {
  const run = await runNode(CHILD, ["0", "50", "exit"], { timeoutMs: 60_000 });
  expect(numbered(run.stdout)).toEqual([...Array(50).keys()]);
  expect(writes(run.stderr)).toBeGreaterThan(10);
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
