import { afterAll, beforeAll, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { countOf } from "../support/database";
import { createTestApp, newPartnerKey, post, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let key: string;
const calls: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources(calls) });
  ({ key } = await newPartnerKey(t.app));
});
afterAll(() => t.close());

it("a repeat (after normalisation) answers 200 with the existing property and creates nothing", async () => {
  const first = await t.api.createProperty(
    post("/properties", { cadastral_reference: "2749704YJ0624N0001DI" }, { "X-API-Key": key }),
  );
  expect(first.status).toBe(201);
  const created = await first.json();
  const callsAfterFirst = calls.length;
  const jobsAfterFirst = await countOf(t.app.db, sql`select 1 from pgboss.job`);

  const again = await t.api.createProperty(
    post("/properties", { cadastral_reference: "2749704 yj0624n-0001 di" }, { "X-API-Key": key }),
  );
  expect(again.status).toBe(200);
  expect(again.headers.get("location")).toBeNull();
  expect(await again.json()).toEqual(created);
  expect(calls.length).toBe(callsAfterFirst);

  expect(await countOf(t.app.db, sql`select 1 from properties`)).toBe(1);
  expect(await countOf(t.app.db, sql`select 1 from pgboss.job`)).toBe(jobsAfterFirst);
});

it("concurrent identical creates make one property: one 201, the rest 200", async () => {
  const results = await Promise.all(
    Array.from({ length: 8 }, () =>
      t.api.createProperty(post("/properties", { cadastral_reference: "9398516VK3799G0002SU" }, { "X-API-Key": key })),
    ),
  );
  const statuses = results.map((r) => r.status).sort();
  expect(statuses.filter((s) => s === 201)).toHaveLength(1);
  expect(statuses.filter((s) => s === 200)).toHaveLength(7);
  const ids = new Set(await Promise.all(results.map(async (r) => (await r.json()).property_id)));
  expect(ids.size).toBe(1);
});
