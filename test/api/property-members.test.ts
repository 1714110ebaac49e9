// Every member of the extended Property (contract: "Property, extended"), with its type and its
// nullability, on create, get, list and the property.enriched webhook payload: checked against the
// zod schema the OpenAPI document is built from, on the sandbox registers (test mode).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { checkLetters } from "@/lib/cadastral-reference";
import { iteOverdue, Property } from "@/lib/domain";
import { scenarioReference } from "@/lib/enrichment/sources/sandbox";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { wirePayload } from "@/lib/webhooks/events";
import { createTestApp, get, newPartnerKey, post, type TestApp } from "../support/app";

const Strict = Property.strict();

let t: TestApp;
let key: string;
let partnerId: string;
beforeAll(async () => {
  t = await createTestApp({
    workers: true,
    env: { ENRICHMENT_RETRY_SCHEDULE_TEST: "1,1", ENRICHMENT_RETRY_JITTER: "0", SANDBOX_SLOW_MS: "3000" },
  });
  const created = await newPartnerKey(t.app);
  key = created.key;
  partnerId = created.partner.id;
  await createEndpoint(
    t.app.db,
    { partnerId, mode: "test" },
    { url: "https://hooks.example.com/finca" },
    { allowPrivate: false, maxEndpoints: 20 },
  );
});
afterAll(() => t.close());

const create = async (reference: string) =>
  (await t.api.createProperty(post("/properties", { cadastral_reference: reference }, { "X-API-Key": key }))).json();

/** The property's `property.enriched` event, once its durable run has recorded it (bounded: a minute). */
async function enrichedEvent(propertyId: string) {
  const { events } = schema;
  for (let i = 0; i < 120; i++) {
    const [event] = await t.app.db
      .select()
      .from(events)
      .where(and(eq(events.propertyId, propertyId), eq(events.type, "property.enriched")));
    if (event) return event;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no property.enriched event for ${propertyId} after a minute`);
}

/** Every member's path in the order it comes, nested objects' members included. */
const paths = (value: unknown, at = ""): string[] =>
  value && typeof value === "object" && !Array.isArray(value)
    ? Object.entries(value).flatMap(([member, inner]) => [at + member, ...paths(inner, `${at}${member}.`)])
    : [];

const DATA_MEMBERS = [
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
] as const;

describe("the extended Property", () => {
  it("create, get and list answer every member, typed as the schema says", async () => {
    const references = ["2749704YJ0624N0001DI", "9398516VK3799G", "13005A109000050000SL", scenarioReference("9404")];
    const created = [];
    for (const reference of references) {
      const body = await create(reference);
      expect(() => Strict.parse(body), JSON.stringify(body)).not.toThrow();
      created.push(body);
    }
    for (const body of created) {
      const got = await (await t.api.getProperty(get(`/properties/${body.property_id}`, { "X-API-Key": key }))).json();
      expect(Strict.parse(got)).toEqual(body);
    }
    const list = await (await t.api.listProperties(get("/properties?limit=100", { "X-API-Key": key }))).json();
    for (const item of list.data) expect(() => Strict.parse(item)).not.toThrow();
  });

  it("a unit: cadastre facts, a point, a unit; a parcel: units and no unit", async () => {
    const unit = await create(`2749704YJ0624N0002${checkLetters("2749704YJ0624N0002")}`);
    expect(unit).toMatchObject({
      use: expect.any(String),
      use_label: expect.any(String),
      built_area_m2: expect.any(Number),
      plot_area_m2: expect.any(Number),
      unit: { staircase: "1", floor: expect.stringMatching(/^\d{2}$/), door: expect.stringMatching(/^[A-D]$/) },
      postal_code: expect.stringMatching(/^\d{5}$/),
      municipality_code: expect.stringMatching(/^\d{5}$/),
      location: { latitude: expect.any(Number), longitude: expect.any(Number) },
      enrichment: {
        cadastre: { provider: "sandbox", licence: null, as_of: null },
        energy_certificate: { provider: "sandbox", licence: null, as_of: null },
        ite: { provider: "sandbox", licence: null, as_of: null },
      },
      // Sandbox data is no one's: it requires no notice.
      attribution: [],
    });
    const parcel = await create("2749704YJ0624N");
    expect(parcel).toMatchObject({ unit: null, units_in_parcel: expect.any(Number) });
    expect(parcel.postal_code).toBe(unit.postal_code); // the building's
  });

  it("a reference the cadastre does not know: every added member present and null", async () => {
    const body = await create(scenarioReference("9404", "members"));
    expect(body.status).toBe("not_found");
    for (const member of DATA_MEMBERS) expect(body[member], member).toBeNull();
    expect(body.energy_certificate).toBeNull();
  });

  it("still enriching: present and null; the property.enriched payload carries every member", async () => {
    const reference = scenarioReference("9100", "members");
    const body = await create(reference);
    expect(body.status).toBe("enriching");
    for (const member of DATA_MEMBERS) expect(body[member], member).toBeNull();
    expect(body.enrichment.cadastre.provider).toBeNull(); // no register has answered yet
    const data = Strict.parse((await enrichedEvent(body.property_id)).payload);
    expect(data).toMatchObject({
      status: "enriched",
      municipality_code: expect.stringMatching(/^\d{5}$/),
      location: expect.any(Object),
    });
  });

  it("ite.overdue follows next_due_on against today's date, read after read", async () => {
    const body = await create("2749704YJ0624N0001DI");
    const due = body.ite.next_due_on as string | null;
    expect(body.ite.overdue).toBe(iteOverdue(due, new Date()));
    // The same inspection, its due date now in the past: overdue from the next read on.
    const { properties } = schema;
    const [row] = await t.app.db.select().from(properties).where(eq(properties.id, body.property_id));
    const ite = { ...row!.details.ite!, next_due_on: "2001-01-01" };
    await t.app.db
      .update(properties)
      .set({ details: { ...row!.details, ite } })
      .where(eq(properties.id, body.property_id));
    const read = await (await t.api.getProperty(get(`/properties/${body.property_id}`, { "X-API-Key": key }))).json();
    expect(read.ite).toMatchObject({ next_due_on: "2001-01-01", overdue: true });
  });

  it("get, list and the webhook payload list members, nested ones too, in the order create does", async () => {
    for (const reference of ["2749704YJ0624N0001DI", "9398516VK3799G", "13005A109000050000SL"]) {
      const body = await create(reference);
      const got = await (await t.api.getProperty(get(`/properties/${body.property_id}`, { "X-API-Key": key }))).json();
      expect(paths(got)).toEqual(paths(body));
      const list = await (await t.api.listProperties(get("/properties?limit=100", { "X-API-Key": key }))).json();
      expect(paths(list.data.find((p: { property_id: string }) => p.property_id === body.property_id))).toEqual(
        paths(body),
      );
    }
    // Enriched by the durable run: what the webhook sends reads as the API answers.
    const enriching = await create(scenarioReference("9100", "order"));
    const wire = JSON.parse(wirePayload(await enrichedEvent(enriching.property_id))).data;
    const got = await (
      await t.api.getProperty(get(`/properties/${enriching.property_id}`, { "X-API-Key": key }))
    ).json();
    // Nested members read back from the details' jsonb (not only `enrichment`, built from rows).
    expect(paths(wire).filter((p) => p.includes(".") && !p.startsWith("enrichment.")).length).toBeGreaterThan(3);
    expect(paths(wire)).toEqual(paths(got));
  });
});
