import { afterAll, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { openDatabase, schema, type Database } from "@/lib/db";
import { createTestApp } from "../support/app";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/database";
import { fakeSources } from "../support/fake-sources";

const run = promisify(execFile);
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

it("a property created just before the process dies keeps its enrichment job, which then completes", async () => {
  let target: string;
  let reopen: () => Promise<TestDatabase>;
  if (onPostgres) {
    const testDb = await createTestDatabase();
    await testDb.database.close();
    target = testDb.url!;
    cleanup.push(() => testDb.drop());
    reopen = async () => ({ database: await openDatabase({ url: target }), drop: async () => {} }) as TestDatabase;
  } else {
    target = await mkdtemp(path.join(tmpdir(), "finca-crash-"));
    cleanup.push(() => rm(target, { recursive: true, force: true }));
    reopen = async () => {
      const database: Database = await openDatabase({ dataDir: target });
      return { database, drop: () => database.close() };
    };
  }

  const child = await run("npx", ["tsx", path.join(__dirname, "../support/crash-child.ts"), target], { cwd: process.cwd() }).catch((e) => e);
  // Killed: by signal, or 137 (128 + 9) as reported through the npx wrapper.
  expect(child.signal === "SIGKILL" || child.code === 137).toBe(true);
  const created = JSON.parse(String(child.stdout).trim().split("\n").at(-1)!);
  expect(created).toMatchObject({ status: 201, state: "enriching" });

  // A new process (this one) finds the job and finishes the enrichment.
  const testDb = await reopen();
  const t = await createTestApp({ testDb, workers: true, sources: fakeSources(), env: { ENRICHMENT_DEADLINE_MS: "200", JOB_POLL_SECONDS: "0.5" } });
  cleanup.push(async () => {
    await t.close();
    await testDb.drop();
  });
  const { properties, events } = schema;
  let status = "enriching";
  for (let i = 0; i < 60 && status === "enriching"; i++) {
    await new Promise((r) => setTimeout(r, 500));
    status = (await t.app.db.select({ status: properties.status }).from(properties).where(eq(properties.id, created.id)))[0]!.status;
  }
  expect(status).toBe("enriched");
  const announced = await t.app.db.select().from(events).where(eq(events.propertyId, created.id));
  expect(announced.map((e) => e.type)).toEqual(["property.enriched"]);
});
