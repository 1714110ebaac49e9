// A worker killed in the middle of a batch: the batch still completes, and every item is
// registered and enriched exactly once (no property, event or delivery lost or doubled).
import { afterAll, afterEach, expect, it } from "vitest";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { checkLetters } from "@/lib/cadastral-reference";
import { rowsOf, schema } from "@/lib/db";
import { createTestApp, newPartnerKey } from "../support/app";
import { sharedDatabase } from "../support/database";
import { fakeSources } from "../support/fake-sources";
import { runNode, stopAll } from "../support/processes";
import { NEVER_MS } from "../support/bounds";
import { batchOf, postJson, settled } from "../support/batches";

const cleanup: (() => Promise<void>)[] = [];
afterEach(stopAll);
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

const unit = (n: number) => {
  const parcel = `${String(4100000 + n).padStart(7, "0")}YJ0624N`;
  return parcel + "0001" + checkLetters(parcel + "0001");
};

it("a worker killed mid-batch: the batch completes, every item registered and announced exactly once", async () => {
  const shared = await sharedDatabase();
  cleanup.push(() => shared.remove());
  const { target } = shared;
  const open = () => shared.open();
  const env = { JOB_POLL_SECONDS: "0.5", JOB_EXPIRE_SECONDS: "2", JOB_MAINTENANCE_SECONDS: "1", BATCH_WINDOW: "10" };

  // The batch is accepted (no workers here), then this process lets go of the database.
  const first = await createTestApp({ testDb: await open(), env });
  const { key, partner } = await newPartnerKey(first.app);
  const refs = Array.from({ length: 30 }, (_, i) => unit(i));
  const accepted = await batchOf(
    await first.api.createBatch(
      postJson({ items: [...refs, refs[0]].map((r) => ({ cadastral_reference: r })) }, { "X-API-Key": key }),
    ),
  );
  await first.close();
  await first.testDb.drop();

  // A worker takes the batch and dies on its 25th register call, in the middle of it.
  const child = await runNode(path.join(__dirname, "../support/crash-child.ts"), ["batch-worker", target, "25"], {
    timeoutMs: NEVER_MS,
  });
  expect(child.signal, child.stderr).toBe("SIGKILL");
  expect(child.stdout.trim().split("\n").at(-1)).toBe("mid-batch");

  // A new process finishes what the dead one held (its jobs expire and run again).
  const testDb = await open();
  const t = await createTestApp({ testDb, workers: true, sources: fakeSources(), env });
  cleanup.push(async () => {
    await t.close();
    await testDb.drop();
  });
  const done = await settled(t, key, accepted.batch_id);
  expect(done.status).toBe("completed");
  expect(done.counts).toMatchObject({ total: 31, enriched: 30, duplicate: 1, pending: 0 });
  const { properties, events, batchItems } = schema;
  const registered = await t.app.db
    .select({ reference: properties.cadastralReference })
    .from(properties)
    .where(eq(properties.partnerId, partner.id));
  expect(registered.map((r) => r.reference).sort()).toEqual([...refs].sort());
  const announced = rowsOf<{ type: string; n: number }>(
    await t.app.db.execute(
      sql`select ${events.type} as type, count(*)::int as n from ${events} where ${events.partnerId} = ${partner.id} group by 1 order by 1`,
    ),
  );
  expect(announced).toEqual([
    { type: "batch.completed", n: 1 },
    { type: "property.enriched", n: 30 },
  ]);
  const items = await t.app.db.select().from(batchItems).where(eq(batchItems.batchId, accepted.batch_id));
  expect(new Set(items.filter((i) => i.status === "enriched").map((i) => i.propertyId)).size).toBe(30);
});
