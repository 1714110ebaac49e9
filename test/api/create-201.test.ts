import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import { firstRunDelaySeconds } from "@/lib/enrichment/schedule";
import { enqueue, QUEUES } from "@/lib/queue";
import { rowsOf } from "@/lib/db";
import { createTestApp, useTestApp, post, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

describe("POST /properties → 201", () => {
  it("creates the property, normalised, with Location and the contract's fields", async () => {
    const res = await t.api.createProperty(
      post("/properties", { cadastral_reference: " 2749704-yj0624n 0001di " }, { "X-API-Key": key }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await res.json();
    expect(res.headers.get("location")).toBe(`/api/v1/partner-api/properties/${body.property_id}`);
    expect(body.property_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.cadastral_reference).toBe("2749704YJ0624N0001DI");
    expect(Object.keys(body).sort()).toEqual(
      [
        "property_id",
        "cadastral_reference",
        "status",
        "address",
        "municipality",
        "province",
        "ccaa",
        "year_built",
        "climate_zone",
        "energy_certificate",
        "ite_fetch_status",
        "enrichment",
        "created_at",
        "updated_at",
        "enriched_at",
        // Property, extended (data depth)
        "use",
        "use_label",
        "built_area_m2",
        "plot_area_m2",
        "units_in_parcel",
        "unit",
        "postal_code",
        "municipality_code",
        "location",
        "ite",
        "attribution",
      ].sort(),
    );
    expect(Object.keys(body.enrichment).sort()).toEqual(["cadastre", "energy_certificate", "ite"]);
    for (const field of ["created_at", "updated_at"]) expect(new Date(body[field]).toISOString()).toBe(body[field]);
  });

  it("answers with the enrichment that finished inline (instant registers → enriched)", async () => {
    const res = await t.api.createProperty(
      post("/properties", { cadastral_reference: "9398516VK3799G0001AY" }, { "X-API-Key": key }),
    );
    const body = await res.json();
    expect(body).toMatchObject({
      status: "enriched",
      municipality: "Madrid",
      province: "Madrid",
      ccaa: "Comunidad de Madrid",
      year_built: 1975,
      climate_zone: "D3",
      energy_certificate: { rating: "E", source: "registry" },
      ite_fetch_status: "unsupported",
      enrichment: { cadastre: { status: "completed", attempts: 1, error: null } },
    });
    expect(body.enriched_at).not.toBeNull();
    // The answer is built from what was written, not read back: it must be exactly what is stored.
    const stored = await t.api.getProperty(
      new Request(`http://finca.test/api/v1/partner-api/properties/${body.property_id}`, {
        headers: { "X-API-Key": key },
      }),
    );
    expect(await stored.json()).toEqual(body);
  });

  it("writes the durable enrichment job in the property's own statement when work is left", async () => {
    const slow = await createTestApp({
      testDb: t.testDb,
      sources: {
        test: { ...fakeSources().test, cadastre: { lookup: () => new Promise(() => {}) } },
        live: fakeSources().live,
      },
      // No jitter: the job's delay is compared with one computed here.
      env: { ENRICHMENT_DEADLINE_MS: "100", ENRICHMENT_RETRY_JITTER: "0" },
    });
    const res = await slow.api.createProperty(
      post("/properties", { cadastral_reference: "6344205CF7664S0001GP" }, { "X-API-Key": key }),
    );
    const { property_id, status } = await res.json();
    expect(status).toBe("enriching");
    const jobs = rowsOf<{ data: { propertyId: string; run: number } }>(
      await t.app.db.execute(
        sql`select data from pgboss.job where name = 'enrich' and data->>'propertyId' = ${property_id}`,
      ),
    );
    expect(jobs).toEqual([{ data: { propertyId: property_id, run: 1 } }]);
    // pg-boss's own statement: the job's settings are those of a job its send makes (enqueue).
    const delaySeconds = firstRunDelaySeconds(slow.app.config, "test");
    const job = { propertyId: randomUUID(), run: 1 };
    const sent = await enqueue(slow.app.queue, t.app.db, QUEUES.enrich, job, { delaySeconds });
    const settings = (where: SQL) =>
      t.app.db.execute(sql`select priority, state, retry_limit, retry_delay, retry_backoff, expire_in, policy,
          round(extract(epoch from start_after - created_on)) as delay,
          round(extract(epoch from keep_until - start_after)) as kept
        from pgboss.job where ${where}`);
    const [written] = rowsOf(await settings(sql`data->>'propertyId' = ${property_id}`));
    expect(written).toEqual(rowsOf(await settings(sql`id = ${sent}`))[0]);
    expect(written).toMatchObject({ retry_limit: 20, retry_backoff: true, state: "created" });
    await t.app.db.execute(sql`delete from pgboss.job where id = ${sent}`);
    await slow.app.queue.stop({ graceful: false, wait: true, timeout: 2000 });
  });

  it("queues no job for a property finished inline (nothing is left to retry)", async () => {
    const res = await t.api.createProperty(
      post("/properties", { cadastral_reference: "8897006XH8189N0001IU" }, { "X-API-Key": key }),
    );
    const { property_id, status } = await res.json();
    expect(status).toBe("enriched");
    expect(
      rowsOf(await t.app.db.execute(sql`select 1 from pgboss.job where data->>'propertyId' = ${property_id}`)),
    ).toEqual([]);
  });

  it("accepts a 14-character parcel reference and a Content-Type with charset", async () => {
    const res = await t.api.createProperty(
      post(
        "/properties",
        { cadastral_reference: "9398516VK3799G" },
        { "X-API-Key": key, "Content-Type": "application/json; charset=utf-8" },
      ),
    );
    expect(res.status).toBe(201);
    expect((await res.json()).cadastral_reference).toBe("9398516VK3799G");
  });

  it("sets X-Request-Id, echoing a sane one and replacing an insane one", async () => {
    const echoed = await t.api.createProperty(
      post(
        "/properties",
        { cadastral_reference: "7506313DF2870F0001MD" },
        { "X-API-Key": key, "X-Request-Id": "abc-123" },
      ),
    );
    expect(echoed.headers.get("x-request-id")).toBe("abc-123");
    const replaced = await t.api.createProperty(
      post(
        "/properties",
        { cadastral_reference: "7506313DF2870F0003WG" },
        { "X-API-Key": key, "X-Request-Id": "bad id <script>" },
      ),
    );
    expect(replaced.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it("carries the rate-limit headers", async () => {
    const res = await t.api.createProperty(
      post("/properties", { cadastral_reference: "7506313DF2870F0015AQ" }, { "X-API-Key": key }),
    );
    expect(res.headers.get("ratelimit-policy")).toBe('"writes";q=100;w=60');
    expect(res.headers.get("ratelimit")).toMatch(/^"writes";r=\d+;t=\d+$/);
  });
});
