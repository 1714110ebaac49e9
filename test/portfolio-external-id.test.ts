// Finding a portfolio item by the partner's own id (external_id), in one portfolio and across a
// partner's portfolios, on a real database. Rows are constructed: real references
// (docs/cadastral-reference.md), made-up loan numbers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "@/lib/db";
import { emptyCounts, type Scope } from "@/lib/domain";
import { findItemsByExternalId, listItems } from "@/lib/batches";
import { createPartner } from "@/lib/partners";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;
let scope: Scope;
let other: Scope;
const ids: Record<"older" | "newer" | "others", string> = { older: "", newer: "", others: "" };

async function portfolio(s: Scope, name: string, items: [string, string | null][]): Promise<string> {
  const db = testDb.database.db;
  const [batch] = await db
    .insert(schema.batches)
    .values({ partnerId: s.partnerId, mode: s.mode, name, counts: emptyCounts(items.length) })
    .returning({ id: schema.batches.id });
  await db.insert(schema.batchItems).values(
    items.map(([cadastralReference, externalId], i) => ({
      batchId: batch!.id,
      line: i + 1,
      cadastralReference,
      externalId,
      status: "pending" as const,
    })),
  );
  return batch!.id;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  scope = { partnerId: (await createPartner(testDb.database.db, "Bank")).id, mode: "test" };
  other = { partnerId: (await createPartner(testDb.database.db, "Other bank")).id, mode: "test" };
  ids.older = await portfolio(scope, "March", [
    ["2749704YJ0624N0001DI", "LOAN-001"],
    ["9398516VK3799G0001AY", "+34 600 000 000"],
  ]);
  ids.newer = await portfolio(scope, "April", [
    ["6344205CF7664S0001GP", null],
    ["2749704YJ0624N0001DI", "LOAN-001"],
  ]);
  ids.others = await portfolio(other, "Theirs", [["9398516VK3799G0001AY", "LOAN-001"]]);
});
afterAll(() => testDb.drop());

describe("items by external_id", () => {
  it("filters one portfolio's items by the id", async () => {
    const page = await listItems(testDb.database.db, scope, ids.newer, { limit: 10, externalId: "LOAN-001" });
    expect(page!.data.map((i) => [i.line, i.external_id])).toEqual([[2, "LOAN-001"]]);
    const none = await listItems(testDb.database.db, scope, ids.newer, { limit: 10, externalId: "+34 600 000 000" });
    expect(none!.data).toEqual([]);
  });

  it("finds the id across the partner's portfolios, newest first, never another partner's", async () => {
    const found = await findItemsByExternalId(testDb.database.db, scope, "LOAN-001", 10);
    expect(found.map((f) => [f.batch.name, f.item.line, f.item.cadastral_reference])).toEqual([
      ["April", 2, "2749704YJ0624N0001DI"],
      ["March", 1, "2749704YJ0624N0001DI"],
    ]);
    const phone = await findItemsByExternalId(testDb.database.db, scope, "+34 600 000 000", 10);
    expect(phone.map((f) => f.batch.batch_id)).toEqual([ids.older]);
    expect(await findItemsByExternalId(testDb.database.db, { ...scope, mode: "live" }, "LOAN-001", 10)).toEqual([]);
    expect(await findItemsByExternalId(testDb.database.db, scope, "loan-001", 10)).toEqual([]);
  });

  it("stops at the limit", async () => {
    expect(await findItemsByExternalId(testDb.database.db, scope, "LOAN-001", 1)).toHaveLength(1);
  });
});
