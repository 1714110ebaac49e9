// batches.wait polls on one AbortSignal for as long as a portfolio runs: each pause's abort
// listener goes with it (no MaxListenersExceededWarning after ten polls), and an abort ends the
// wait at once. The server here is a stand-in fetch answering a batch that completes at the 30th poll.
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { createFinca } from "./index";

const batch = (polls: number, done: boolean) => ({
  batch_id: "6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b",
  status: done ? "completed" : "running",
  completed_at: done ? "2026-11-28T20:00:00Z" : null,
  counts: { total: 30, pending: 30 - polls },
});

function standIn(completeAt: number) {
  let polls = 0;
  const fetch: typeof globalThis.fetch = async () => {
    polls++;
    return Response.json(batch(polls, polls >= completeAt));
  };
  return { fetch, polls: () => polls };
}

describe("batches.wait", () => {
  it("leaves no abort listener behind and raises no warning over many polls", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    const server = standIn(30);
    const signal = new AbortController().signal;
    const finca = createFinca({ apiKey: "finca_test_x", fetch: server.fetch });
    const seen: number[] = [];
    const done = await finca.batches.wait(batch(0, false).batch_id, {
      intervalMs: 1,
      signal,
      onProgress: (b) => seen.push(b.counts.pending),
    });
    // Node reports the warning on the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    process.off("warning", onWarning);
    expect(done.completed_at).not.toBeNull();
    expect(seen).toHaveLength(30);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    expect(warnings.map((w) => w.name)).not.toContain("MaxListenersExceededWarning");
  });

  it("stops at once when its signal aborts, before or during a pause", async () => {
    const server = standIn(Number.POSITIVE_INFINITY);
    const finca = createFinca({ apiKey: "finca_test_x", fetch: server.fetch });
    const stop = new AbortController();
    const waiting = finca.batches.wait("id", { intervalMs: 3_600_000, signal: stop.signal });
    while (server.polls() === 0) await new Promise((resolve) => setImmediate(resolve));
    stop.abort(new Error("stopped"));
    await expect(waiting).rejects.toThrow("stopped");
    await expect(finca.batches.wait("id", { intervalMs: 1, signal: stop.signal })).rejects.toThrow("stopped");
    expect(getEventListeners(stop.signal, "abort")).toHaveLength(0);
  });
});
