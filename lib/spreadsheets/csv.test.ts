// The CSV reader threads step aside while more threads are runnable than there are cores
// (lib/spreadsheets/reader-thread.ts): bounded, so a file still reaches its end on a machine kept
// saturated. Spinning processes (sessions of their own, as a PostgreSQL backend is) fill the cores
// here; nothing is timed, the file must only come back whole.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { expect, it } from "vitest";
import { csvReaders, csvRows } from "./csv";

it("reads a file to its end while other processes keep every core busy", async () => {
  const spinners = Array.from({ length: availableParallelism() + 1 }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { detached: true, stdio: "ignore" }),
  );
  try {
    const rows = 20_000;
    const text = `cadastral_reference,n\n${Array.from({ length: rows }, (_, i) => `REF${i},${"x".repeat(40)}`).join("\n")}\n`;
    const chunks = (async function* () {
      for (let at = 0; at < text.length; at += 64 * 1024) yield text.slice(at, at + 64 * 1024);
    })();
    const read: string[][] = [];
    const options = {
      delimiter: ",",
      limits: { maxRowChars: 10_000, maxFieldChars: 1_000, maxColumns: 10 },
      pick: (row: string[]) => (row[0] === "cadastral_reference" ? { keep: [0], whole: 0 } : null),
    };
    for await (const page of csvRows(csvReaders(1), chunks, options)) read.push(...page);
    expect(read).toHaveLength(rows);
    expect(read.at(-1)).toEqual([`REF${rows - 1}`]);
  } finally {
    for (const spinner of spinners) spinner.kill("SIGKILL");
  }
}, 120_000);
