// Migration 0018 on data written before provenance was kept: a copy's as_of (the download day)
// becomes its newest record's date (Cantabria's, the date its workbook states), and events sent
// before gain the Property's provenance members, unknown, so they still read as the contract's.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { schema } from "@/lib/db";
import { Property } from "@/lib/domain";
import { aProperty } from "@/test/support/payloads";
import { createTestDatabase, type TestDatabase } from "@/test/support/database";

const { events, partners, registerDatasets, registerRecords } = schema;

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.drop());
const db = () => testDb.database.db;

const MIGRATION = readFileSync(path.join(process.cwd(), "drizzle/migrations/0018_provenance.sql"), "utf8");
const migrate = async () => {
  // The columns exist already (the test database is migrated): only the data statements run again.
  for (const statement of MIGRATION.split("--> statement-breakpoint").filter((s) => !/ALTER TABLE/.test(s)))
    await db().execute(sql.raw(statement));
};

const record = (dataset: string, sourceRow: number, data: Record<string, unknown>, datedOn: string | null) => ({
  dataset,
  generation: 1,
  kind: "certificate" as const,
  parcel: "7541901XM8174S",
  unit: null,
  datedOn,
  sourceRow,
  data,
});

it("dates old copies by their newest record (never the download day) and completes old events", async () => {
  const downloaded = { generation: 1, rows: 2, asOf: "2026-11-20", importedAt: new Date("2026-11-20T03:30:00Z") };
  await db()
    .insert(registerDatasets)
    .values([
      { id: "ara-gaodcore", ...downloaded },
      { id: "ctb-dgicc", ...downloaded },
      { id: "rio-larioja", ...downloaded },
    ]);
  await db()
    .insert(registerRecords)
    .values([
      record("ara-gaodcore", 2, { issuedOn: "2019-05-10" }, "2019-05-10"),
      record("ara-gaodcore", 3, { issuedOn: "2022-03-01" }, "2022-03-01"),
      // A date past the import is a typo in the file, not the snapshot's date.
      record("ara-gaodcore", 4, { issuedOn: "2031-01-01" }, "2031-01-01"),
      record("ctb-dgicc", 2, { issuedOn: "2021-12-01" }, "2021-12-01"),
      // Only an end of validity: no record tells its own date.
      record("rio-larioja", 2, { issuedOn: null, validUntil: "2029-05-10" }, "2029-05-10"),
    ]);
  const [partner] = await db().insert(partners).values({ name: "provenance" }).returning();
  const old = aProperty() as Record<string, unknown>;
  delete old.attribution;
  for (const source of Object.values(old.enrichment as Record<string, Record<string, unknown>>))
    for (const key of ["as_of", "retrieved_at", "dataset", "licence"]) delete source[key];
  const [event] = await db()
    .insert(events)
    .values({ partnerId: partner!.id, mode: "live", type: "property.enriched", payload: old })
    .returning();
  expect(Property.safeParse(event!.payload).success).toBe(false);

  await migrate();

  const dated = Object.fromEntries(
    (await db().select().from(registerDatasets)).map((d) => [d.id, [d.asOf, d.asOfBasis, d.latestRecordOn]]),
  );
  expect(dated).toEqual({
    "ara-gaodcore": ["2022-03-01", "latest_record", "2022-03-01"],
    "ctb-dgicc": ["2022-04-05", "published", "2021-12-01"],
    "rio-larioja": [null, null, null],
  });
  const [migrated] = await db().select().from(events).where(eq(events.id, event!.id));
  expect(Property.parse(migrated!.payload)).toMatchObject({
    attribution: [],
    enrichment: { cadastre: { as_of: null, licence: null }, ite: { retrieved_at: null, dataset: null } },
  });
});
