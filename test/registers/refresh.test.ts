// The scheduled refresh: datasets with URLs in REGISTER_URLS are scheduled (pg-boss cron) and
// refreshed by the worker; an admin's request runs the same job for one dataset.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplayServer, type ReplayServer } from "@/lib/enrichment/sources/testing/replay-server";
import { QUEUES } from "@/lib/queue";
import { listDatasets, requestRefresh as request } from "@/lib/registers";
import { createTestApp, type TestApp } from "../support/app";
import { createTestDatabase } from "../support/database";
import { eventually } from "../support/wait";
import { fixture } from "./support";

let server: ReplayServer;
let t: TestApp;
beforeAll(async () => {
  server = await startReplayServer();
  server.on(/aragon\.csv/, { body: await readFile(fixture("ara-gaodcore"), "utf8"), contentType: "text/csv" });
  server.on(/broken\.csv/, {
    body: 'refcatastral,clasificacion_consumo\n"7541901XM8174S0001SQ,E\n',
    contentType: "text/csv",
  });
  t = await createTestApp({
    workers: true,
    env: {
      REGISTER_URLS: `ara-gaodcore=${server.url}/aragon.csv cyl-jcyl=${server.url}/broken.csv`,
      REGISTER_REFRESH_CRON: "15 4 * * 1",
      // The replay server is plain http on loopback: what production refuses.
      FINCA_REGISTERS_ALLOW_PRIVATE: "1",
    },
  });
});
afterAll(async () => {
  await t?.close();
  await server?.close();
});

const requestRefresh = (queue: TestApp["app"]["queue"], dataset: string) =>
  request(queue, t.app.db, t.app.config.REGISTER_URLS, dataset);
const status = async (id: string) => (await listDatasets(t.app.db, 400)).find((d) => d.id === id)!;

describe("register refresh", () => {
  it("is scheduled with the configured cron", async () => {
    const schedules = await t.app.queue.getSchedules();
    expect(schedules.filter((s) => s.name === QUEUES.refreshRegisters)).toEqual([
      expect.objectContaining({ cron: "15 4 * * 1", timezone: "UTC" }),
    ]);
  });

  it("imports a dataset from its configured URL when asked", async () => {
    await requestRefresh(t.app.queue, "ara-gaodcore");
    const done = await eventually("the Aragón dataset imported", async () =>
      (await status("ara-gaodcore")).rows > 0 ? status("ara-gaodcore") : null,
    );
    expect(done).toMatchObject({
      rows: 5,
      skipped: 2,
      // Never the download day: no publisher's date is known, so the newest record's issue date.
      asOf: "2022-03-01",
      asOfBasis: "latest_record",
      source: `${server.url}/aragon.csv`,
    });
  });

  it("keeps a failing dataset's error for operators", async () => {
    await requestRefresh(t.app.queue, "cyl-jcyl");
    const failed = await eventually(
      "the broken file's error recorded",
      async () => (await status("cyl-jcyl")).lastError,
    );
    expect(failed).toContain("broken.csv: line 1: the header lacks");
    expect((await status("cyl-jcyl")).rows).toBe(0);
  });

  it("is refused with the reason for a dataset without a URL or that does not exist", async () => {
    const refusal = (dataset: string) => requestRefresh(t.app.queue, dataset).catch((error: unknown) => error);
    expect(await refusal("can-gobcan")).toMatchObject({
      code: "validation_error",
      detail: "No URL is configured for can-gobcan (REGISTER_URLS).",
    });
    for (const unknown of ["no-such-dataset", "", "00000000-0000-4000-8000-000000000000"])
      expect(await refusal(unknown), unknown).toMatchObject({
        code: "validation_error",
        detail: /no register dataset/,
      });
    expect(await refusal("x".repeat(10_000))).toMatchObject({
      detail: `There is no register dataset "${"x".repeat(64)}".`,
    });
  });
});

it("a configured dataset that does not exist stops the start, named", async () => {
  const testDb = await createTestDatabase();
  try {
    await expect(
      createTestApp({ testDb, workers: true, env: { REGISTER_URLS: "atlantis=https://example.org/x.csv" } }),
    ).rejects.toThrow(/unknown dataset "atlantis"/);
  } finally {
    await testDb.drop();
  }
});
