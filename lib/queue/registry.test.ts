// The queue registry types what is queued and checks what a worker reads back: a job whose data is
// not its queue's shape fails on its own, and the good jobs fetched with it are handled.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/test/support/app";
import { eventually } from "@/test/support/wait";
import { enqueue, QUEUES, workInBatches, type JobData, type JobRun } from ".";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.app.queue.offWork(QUEUES.batch);
  await t.close();
});

it("fails a job whose data is not its queue's shape, alone, and hands the others over typed", async () => {
  const good = { batchId: randomUUID(), step: 2 };
  await enqueue(t.app.queue, t.app.db, QUEUES.batch, good);
  if (good.step < 0) {
    // @ts-expect-error: an enrich job's data is not a batch job's (tsc, which npm test runs, checks this).
    await enqueue(t.app.queue, t.app.db, QUEUES.batch, { propertyId: good.batchId, run: 1 });
  }
  // Written around the types, as an older or foreign producer could.
  const badId = (await t.app.queue.send(QUEUES.batch, { batchId: "not-an-id", step: "two" }))!;
  const handled: JobData<typeof QUEUES.batch>[] = [];
  const runs: JobRun[] = [];
  await workInBatches(
    t.app.queue,
    QUEUES.batch,
    { workers: 1, batchSize: 10, pollSeconds: 0.5, onRun: (run) => runs.push(run) },
    async (jobs) => void handled.push(...jobs),
  );
  await eventually("both jobs reported", async () => (runs.length >= 2 ? runs : undefined));
  expect(handled).toEqual([good]);
  const failed = runs.find((r) => r.jobId === badId)!;
  expect(String(failed.error)).toMatch(/job data is not a batch job/);
  expect(runs.find((r) => r.jobId !== badId)!.error).toBeNull();
  const job = await eventually("the bad job failed", async () => {
    const found = await t.app.queue.getJobById(QUEUES.batch, badId);
    return found && ["retry", "failed"].includes(found.state) ? found : undefined;
  });
  expect(job.output).toMatchObject({ message: expect.stringMatching(/batchId/) });
});
