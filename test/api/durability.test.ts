import { afterAll, afterEach, expect, it } from "vitest";
import path from "node:path";
import { eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { createTestApp } from "../support/app";
import { sharedDatabase } from "../support/database";
import { fakeSources } from "../support/fake-sources";
import { runNode, stopAll } from "../support/processes";
import { NEVER_MS } from "../support/bounds";
import { eventually } from "../support/wait";

const cleanup: (() => Promise<void>)[] = [];
// A child still running (the test failed or timed out while it ran) is stopped before anything else.
afterEach(stopAll);
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

it("a property created just before the process dies keeps its job; a worker killed mid-job loses nothing", async () => {
  const shared = await sharedDatabase();
  cleanup.push(() => shared.remove());
  const { target } = shared;
  const reopen = () => shared.open();

  const crash = async (mode: string) => {
    // A child takes seconds (it opens the database): only a hang is stopped.
    const child = await runNode(path.join(__dirname, "../support/crash-child.ts"), [mode, target], {
      timeoutMs: NEVER_MS,
    });
    expect(child.signal, child.stderr).toBe("SIGKILL");
    return child.stdout.trim().split("\n").at(-1)!;
  };
  const created = JSON.parse(await crash("create"));
  expect(created).toMatchObject({ status: 201, state: "enriching" });
  // A worker takes the job and dies in the middle of it.
  expect(await crash("worker")).toBe("mid-job");

  // A new process (this one) gets the expired job again and finishes the enrichment.
  const testDb = await reopen();
  const env = {
    ENRICHMENT_DEADLINE_MS: "200",
    JOB_POLL_SECONDS: "0.5",
    JOB_EXPIRE_SECONDS: "2",
    JOB_MAINTENANCE_SECONDS: "1",
  };
  const t = await createTestApp({ testDb, workers: true, sources: fakeSources(), env });
  cleanup.push(async () => {
    await t.close();
    await testDb.drop();
  });
  const { properties, events } = schema;
  const status = await eventually("the expired job runs again and the property is final", async () => {
    const [row] = await t.app.db
      .select({ status: properties.status })
      .from(properties)
      .where(eq(properties.id, created.id));
    return row!.status !== "enriching" && row!.status;
  });
  expect(status).toBe("enriched");
  const announced = await t.app.db.select().from(events).where(eq(events.propertyId, created.id));
  expect(announced.map((e) => e.type)).toEqual(["property.enriched"]);
});
