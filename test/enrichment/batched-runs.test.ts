// Durable runs are worked in batches: one read and one write for all of a batch's runs, each
// still guarded by its own run number, and one run the database refuses does not stop the others.
import { describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { checkLetters } from "@/lib/cadastral-reference";
import { schema } from "@/lib/db";
import type { Sources } from "@/lib/enrichment/sources/types";
import { registerReferences, runEnrichmentJobs } from "@/lib/properties";
import { newPartnerKey, useTestApp, type TestApp } from "../support/app";
import { countOf } from "../support/database";
import { fakeSources, MADRID_FACTS } from "../support/fake-sources";

const fake = fakeSources().test;
// Unit 0666's cadastre answers an address PostgreSQL cannot store (a NUL character).
const sources: Sources = {
  ...fake,
  cadastre: {
    async lookup(input) {
      if (input.reference.slice(14, 18) !== "0666") return fake.cadastre.lookup(input);
      return {
        kind: "found",
        data: { reference: input.reference, ...MADRID_FACTS, address: "CL MAYOR\u0000 1" },
        provider: "sandbox",
      };
    },
  },
};

let t: TestApp;
useTestApp({ sources: { test: sources, live: sources } }, (ctx) => ({ t } = ctx));

const unit = (n: number, u = "0001") => {
  const parcel = `${String(9100000 + n).padStart(7, "0")}YJ0624N`;
  return parcel + u + checkLetters(parcel + u);
};

async function registered(references: string[]) {
  const { partner } = await newPartnerKey(t.app);
  const scope = { partnerId: partner.id, mode: "test" as const };
  const map = await t.app.db.transaction((tx) => registerReferences(tx, t.app.queue, scope, references));
  return references.map((r) => map.get(r)!.propertyId);
}

const statuses = async (ids: string[]) =>
  Object.fromEntries(
    (
      await t.app.db
        .select({ id: schema.properties.id, status: schema.properties.status })
        .from(schema.properties)
        .where(inArray(schema.properties.id, ids))
    ).map((r) => [r.id, r.status]),
  );
const enrichedEvents = (ids: string[]) =>
  countOf(
    t.app.db,
    sql`select 1 from ${schema.events} where ${schema.events.type} = 'property.enriched' and ${inArray(schema.events.propertyId, ids)}`,
  );

describe("a batch of durable runs", () => {
  it("writes every run's results at once; a stale job in the batch does nothing", async () => {
    const ids = await registered([unit(1), unit(2), unit(3)]);
    // The third property's run 0 happened already: its job for run 0 is stale.
    await t.app.db.update(schema.properties).set({ enrichmentRun: 1 }).where(eq(schema.properties.id, ids[2]!));
    await runEnrichmentJobs(
      t.app,
      ids.map((propertyId) => ({ propertyId, run: 0 })),
    );
    expect(await statuses(ids)).toEqual({ [ids[0]!]: "enriched", [ids[1]!]: "enriched", [ids[2]!]: "enriching" });
    expect(await enrichedEvents(ids)).toBe(2);
    const attempts = await countOf(
      t.app.db,
      sql`select 1 from ${schema.enrichmentAttempts} where ${inArray(schema.enrichmentAttempts.propertyId, ids)}`,
    );
    expect(attempts).toBe(6);
    // Run again, the same jobs are all stale: nothing changes, nothing is announced twice.
    await runEnrichmentJobs(
      t.app,
      ids.map((propertyId) => ({ propertyId, run: 0 })),
    );
    expect(await enrichedEvents(ids)).toBe(2);
  });

  it("a run the database refuses fails the batch, but the others are written", async () => {
    const ids = await registered([unit(10), unit(11, "0666"), unit(12)]);
    await expect(
      runEnrichmentJobs(
        t.app,
        ids.map((propertyId) => ({ propertyId, run: 0 })),
      ),
    ).rejects.toThrow();
    expect(await statuses(ids)).toEqual({ [ids[0]!]: "enriched", [ids[1]!]: "enriching", [ids[2]!]: "enriched" });
    expect(await enrichedEvents(ids)).toBe(2);
  });
});
