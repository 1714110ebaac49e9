// Migration 0017 on data written before registration dates were told apart: index records and
// properties' certificates from the registers that give only a registration date move it to
// registered_on (validity unknown); every other certificate is left to be derived again when read.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { schema } from "@/lib/db";
import type { EnergyCertificate, StoredCertificate } from "@/lib/domain";
import { getProperty } from "@/lib/properties";
import { createTestDatabase, type TestDatabase } from "@/test/support/database";

const { partners, properties, registerRecords } = schema;

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.drop());
const db = () => testDb.database.db;

const MIGRATION = readFileSync(path.join(process.cwd(), "drizzle/migrations/0017_registration_dates.sql"), "utf8");
const migrate = async () => {
  for (const statement of MIGRATION.split("--> statement-breakpoint")) await db().execute(sql.raw(statement));
};

/** A certificate as stored before registered_on and valid_until_source existed. */
const legacy = (registry: string, rating: EnergyCertificate["rating"], issuedOn: string, validUntil: string) =>
  ({
    rating,
    source: "registry",
    emissions_rating: null,
    primary_energy_kwh_m2_year: null,
    emissions_kg_co2_m2_year: null,
    issued_on: issuedOn,
    valid_until: validUntil,
    expired: false,
    scope: "unit",
    registry,
    certificate_id: null,
    probabilities: null,
    confidence: null,
    basis: null,
  }) satisfies StoredCertificate as EnergyCertificate;

it("moves registration dates to registered_on; other certificates are derived again when read", async () => {
  const [partner] = await db().insert(partners).values({ name: "migration" }).returning();
  const scope = { partnerId: partner!.id, mode: "live" as const };
  const stored = async (reference: string, certificate: EnergyCertificate) => {
    const [row] = await db()
      .insert(properties)
      .values({ ...scope, cadastralReference: reference, status: "enriched", energyCertificate: certificate })
      .returning();
    return row!.id;
  };
  const cyl = await stored(
    "4926201VM4742N0001YK",
    legacy("JCyL certificados de eficiencia energética", "E", "2019-05-10", "2029-05-10"),
  );
  const catalonia = await stored("0625102DF3802F0001WT", legacy("ICAEN (j6ii-t3w2)", "G", "2022-03-01", "2032-03-01"));
  const aragon = await stored(
    "7541901XM8174S0001SQ",
    legacy("Gobierno de Aragón (GA_OD_Core 237)", "G", "2022-03-01", "2032-03-01"),
  );
  const record = (dataset: string, data: Record<string, unknown>) => ({
    dataset,
    generation: 1,
    kind: "certificate" as const,
    parcel: "4926201VM4742N",
    unit: "4926201VM4742N0001",
    datedOn: "2019-05-10",
    sourceRow: 2,
    data,
  });
  await db()
    .insert(registerRecords)
    .values([
      record("cyl-jcyl", { rating: "E", issuedOn: "2019-05-10", validUntil: null }),
      record("cyl-jcyl", { rating: "D", issuedOn: null, registeredOn: "2020-01-02", validUntil: null }),
      record("and-junta", { rating: "C", issuedOn: "2018-04-03", validUntil: null }),
    ]);

  await migrate();

  const shown = async (id: string) => (await getProperty(db(), scope, id))!.energy_certificate;
  for (const id of [cyl, catalonia])
    expect(await shown(id)).toMatchObject({
      issued_on: null,
      valid_until: null,
      valid_until_source: "unknown",
      expired: null,
    });
  expect((await shown(cyl))!.registered_on).toBe("2019-05-10");
  // Aragón gives the issue date: a G issued in 2022 is valid 5 years, derived again when read.
  expect(await shown(aragon)).toMatchObject({
    issued_on: "2022-03-01",
    registered_on: null,
    valid_until: "2027-03-01",
    valid_until_source: "derived",
  });
  const data = (dataset: string) =>
    db()
      .select({ data: registerRecords.data })
      .from(registerRecords)
      .where(eq(registerRecords.dataset, dataset))
      .orderBy(registerRecords.id);
  expect((await data("cyl-jcyl")).map((r) => r.data)).toEqual([
    { rating: "E", issuedOn: null, registeredOn: "2019-05-10", validUntil: null },
    { rating: "D", issuedOn: null, registeredOn: "2020-01-02", validUntil: null },
  ]);
  expect((await data("and-junta"))[0]!.data).toEqual({ rating: "C", issuedOn: "2018-04-03", validUntil: null });

  // Run again, it changes nothing.
  await migrate();
  expect((await data("cyl-jcyl"))[0]!.data).toEqual({
    rating: "E",
    issuedOn: null,
    registeredOn: "2019-05-10",
    validUntil: null,
  });
});
