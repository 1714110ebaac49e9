// npm start's workers in a child process of their own (server/worker-process.ts): it runs on the
// server's database at a lower priority, works the queue (a batch accepted by the server's App, which
// runs no workers, completes), is started again when it crashes, and is gone once stopped.
import { readdir, readFile } from "node:fs/promises";
import { getPriority } from "node:os";
import { expect, it } from "vitest";
import { startWorkerProcess } from "@/server/worker-process";
import { checkLetters } from "@/lib/cadastral-reference";
import { newPartnerKey, useTestApp, type TestApp } from "../support/app";
import { batchOf, postJson, settled } from "../support/batches";
import { fakeSources } from "../support/fake-sources";
import { eventually } from "../support/wait";

let t: TestApp;
useTestApp({ sources: fakeSources(), workers: false }, (ctx) => ({ t } = ctx));

/** This process's children running the worker entry. */
async function workerChildren(): Promise<number[]> {
  const found: number[] = [];
  for (const pid of (await readdir("/proc")).filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (ppid === process.pid && command.includes("scripts/worker.")) found.push(Number(pid));
  }
  return found;
}

it("runs the workers apart at nice 19, starts them again after a crash, and leaves nothing once stopped", async () => {
  const workers = startWorkerProcess(t.app);
  try {
    const [first] = await eventually("the worker process is running", async () => {
      const pids = await workerChildren();
      return pids.length ? pids : null;
    });
    expect(getPriority(first!)).toBe(19);
    // The server's App queues; the child works it.
    const { key } = await newPartnerKey(t.app);
    const parcel = "3100001YJ0624N0001";
    const batch = await batchOf(
      await t.api.createBatch(
        postJson({ items: [{ cadastral_reference: parcel + checkLetters(parcel) }] }, { "X-API-Key": key }),
      ),
    );
    expect((await settled(t, key, batch.batch_id)).counts).toMatchObject({ total: 1, pending: 0 });
    process.kill(first!, "SIGKILL");
    await eventually("a new worker process", async () => {
      const pids = await workerChildren();
      return pids.length && !pids.includes(first!) ? pids : null;
    });
  } finally {
    await workers.stop();
  }
  expect(await workerChildren()).toEqual([]);
});
