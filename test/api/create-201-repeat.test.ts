// POST /properties with an Idempotency-Key: the same key and reference within 24 h answer as the
// first request did (201 and its property, as it is now) and register nothing; another reference
// is a 422 naming the header and registers nothing; without a key a repeat answers 200 (creation is
// idempotent on the reference anyway: the key adds the first answer's status and the refusal).
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { checkLetters } from "@/lib/cadastral-reference";
import { schema } from "@/lib/db";
import { newPartnerKey, post, problemOf, useTestApp, type TestApp } from "../support/app";
import { countOf } from "../support/database";
import { fakeSources } from "../support/fake-sources";

// The reference of the race below: its cadastre lookup waits until both requests are enriching, so
// both passed the key's check before either wrote.
const RACED = `5300001YJ0624N0001${checkLetters("5300001YJ0624N0001")}`;
let arrived = 0;
let bothArrived: () => void;
const both = new Promise<void>((resolve) => (bothArrived = resolve));
const sources = fakeSources();
const cadastre = sources.test.cadastre;
sources.test.cadastre = {
  async lookup(query) {
    if (query.reference === RACED && ++arrived === 2) bothArrived();
    if (query.reference === RACED) await both;
    return cadastre.lookup(query);
  },
};

let t: TestApp;
useTestApp({ sources }, (ctx) => ({ t } = ctx));

const { properties } = schema;
const propertiesOf = (partnerId: string) =>
  countOf(t.app.db, sql`select 1 from ${properties} where ${properties.partnerId} = ${partnerId}`);
const create = (reference: string, headers: Record<string, string>) =>
  t.api.createProperty(post("/properties", { cadastral_reference: reference }, headers));

describe("POST /properties with an Idempotency-Key", () => {
  it("the same key and reference within 24 h answer the first response again (201, its property) and register nothing", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key, "Idempotency-Key": "loan-81-a" };
    const first = await create("2749704YJ0624N0001DI", headers);
    expect(first.status).toBe(201);
    const created = await first.json();
    // The same request, the reference spelt as a person types it.
    const again = await create(" 2749704-yj0624n 0001di ", headers);
    expect(again.status).toBe(201);
    expect(again.headers.get("location")).toBe(`/api/v1/partner-api/properties/${created.property_id}`);
    expect(await again.json()).toEqual(created);
    expect(await propertiesOf(partner.id)).toBe(1);
    // Without the key, the repeat is a repeat of the reference: 200.
    expect((await create("2749704YJ0624N0001DI", { "X-API-Key": key })).status).toBe(200);
  });

  it("a key first sent with a repeat answers 200 again for its reference, and refuses another one", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    expect((await create("2749704YJ0624N0001DI", { "X-API-Key": key })).status).toBe(201);
    const headers = { "X-API-Key": key, "Idempotency-Key": "loan-83" };
    expect((await create("2749704YJ0624N0001DI", headers)).status).toBe(200);
    expect((await create("2749704YJ0624N0001DI", headers)).status).toBe(200);
    const other = await create("9872023VH5797S0001WX", headers);
    expect(other.status).toBe(422);
    expect((await problemOf(other)).errors).toEqual([
      { header: "Idempotency-Key", detail: expect.stringMatching(/another body/) },
    ]);
    expect(await propertiesOf(partner.id)).toBe(1);
  });

  it("the same key with another reference is a 422 naming the header, and registers nothing", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key, "Idempotency-Key": "loan-82" };
    expect((await create("2749704YJ0624N0001DI", headers)).status).toBe(201);
    const other = await create("9872023VH5797S0001WX", headers);
    expect(other.status).toBe(422);
    expect((await problemOf(other)).errors).toEqual([
      { header: "Idempotency-Key", detail: expect.stringMatching(/another body/) },
    ]);
    expect(await propertiesOf(partner.id)).toBe(1);
  });

  it("a key is the partner's own, and an old key is free again", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const other = await newPartnerKey(t.app);
    const headers = (k: string) => ({ "X-API-Key": k, "Idempotency-Key": "shared" });
    expect((await create("2749704YJ0624N0001DI", headers(key))).status).toBe(201);
    expect((await create("9872023VH5797S0001WX", headers(other.key))).status).toBe(201);
    await t.app.db
      .update(properties)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(properties.partnerId, partner.id));
    // 25 hours later the key registers another reference (and the old property no longer holds it).
    const later = await create("9872023VH5797S0001WX", headers(key));
    expect(later.status).toBe(201);
    expect(await propertiesOf(partner.id)).toBe(2);
    const holders = await t.app.db
      .select({ id: properties.id })
      .from(properties)
      .where(eq(properties.idempotencyKey, "shared"));
    expect(holders).toHaveLength(2); // the new property and the other partner's
  });

  it("two requests with one key at once: one registers, both answer 201 with the same property", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key, "Idempotency-Key": "burst" };
    const answers = await Promise.all([1, 2].map(() => create(RACED, headers)));
    expect(arrived).toBe(2);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(answers.map((r) => r.status)).toEqual([201, 201]);
    expect(bodies[0].property_id).toBe(bodies[1].property_id);
    expect(await propertiesOf(partner.id)).toBe(1);
  });

  it("a malformed key is a 422 naming the header, before anything is registered", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const res = await create("2749704YJ0624N0001DI", { "X-API-Key": key, "Idempotency-Key": "x".repeat(201) });
    expect(res.status).toBe(422);
    expect((await problemOf(res)).errors).toEqual([{ header: "Idempotency-Key", detail: expect.any(String) }]);
    expect(await propertiesOf(partner.id)).toBe(0);
  });
});
