import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { checkLetters } from "@/lib/cadastral-reference";
import type { Sources } from "@/lib/enrichment/sources/types";
import { createTestApp, get, newPartnerKey, post, type TestApp } from "../support/app";
import { MADRID_FACTS } from "../support/fake-sources";
import { eventually } from "../support/wait";

// Registers whose behaviour depends on the reference's unit number, counting every call.
const calls: string[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const behaviour = (reference: string) => reference.slice(14, 18);
// The instant registers finish inline long before it, however slow the machine.
const DEADLINE_MS = 1500;

/**
 * Unit 0001's first cadastre call hangs, ignoring the abort on purpose, until the test releases it.
 * It notes whether the deadline's abort came before a timer of the whole deadline started with the
 * call: timers fire in the order they are due, however slow the machine, and the inline deadline
 * (the request's deadline minus the write's reserve) was set before the call began.
 */
const hang = { abortedInTime: false, release: () => {}, released: false };
const hanging = new Promise<void>((resolve) => (hang.release = resolve)).then(() => void (hang.released = true));

const sources: Sources = {
  cadastre: {
    async lookup({ reference, attempt, signal }) {
      calls.push(`cadastre:${reference}:${attempt}`);
      const unit = behaviour(reference);
      if (unit === "0001" && attempt === 1) {
        let late = false;
        const whole = setTimeout(() => (late = true), DEADLINE_MS);
        signal.addEventListener("abort", () => ((hang.abortedInTime = !late), clearTimeout(whole)), { once: true });
        await hanging;
      }
      if (unit === "0004") return { kind: "not_found", provider: "sandbox" };
      if (unit === "0005" && attempt === 1) return { kind: "error", code: "upstream_html", message: "WAF page" };
      return { kind: "found", data: { reference, ...MADRID_FACTS }, provider: "sandbox" };
    },
  },
  energyCertificate: {
    async lookup({ reference, attempt }) {
      calls.push(`energy_certificate:${reference}:${attempt}`);
      if (behaviour(reference) === "0002" && attempt === 1)
        return { kind: "error", code: "registry_unavailable", message: "503" };
      return { kind: "not_found", provider: "sandbox" };
    },
  },
  ite: {
    async lookup({ reference, attempt }) {
      calls.push(`ite:${reference}:${attempt}`);
      if (behaviour(reference) === "0003") return { kind: "error", code: "registry_unavailable", message: "down" };
      return { kind: "found", data: { status: "not_required" }, provider: "sandbox" };
    },
  },
};

const ref = (unit: string, parcel = "2749704YJ0624N") => parcel + unit + checkLetters(parcel + unit);

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp({
    sources: { test: sources, live: sources },
    workers: true,
    env: {
      ENRICHMENT_DEADLINE_MS: String(DEADLINE_MS),
      ENRICHMENT_RETRY_SCHEDULE_TEST: "1,1,1",
      ENRICHMENT_RETRY_JITTER: "0",
      JOB_POLL_SECONDS: "0.5",
    },
  });
  ({ key } = await newPartnerKey(t.app));
});
afterAll(async () => {
  hang.release();
  await t.close();
});

const create = (reference: string) =>
  t.api.createProperty(post("/properties", { cadastral_reference: reference }, { "X-API-Key": key }));

const waitFinal = (id: string) =>
  eventually(`property ${id} reaches a final status`, async () => {
    const body = await (await t.api.getProperty(get(`/properties/${id}`, { "X-API-Key": key }))).json();
    return body.status !== "enriching" && body;
  });

const eventsOf = (id: string) => t.app.db.select().from(schema.events).where(eq(schema.events.propertyId, id));

describe("enrichment pipeline", () => {
  it("answers at the deadline with nulls while a register hangs, then completes and announces once", async () => {
    const res = await create(ref("0001"));
    // The deadline cut the register's call short, and the answer came while that call still hung:
    // it waited for the deadline, not for the register. (How long after the deadline the answer
    // leaves is a timing, measured by bench/deadline.ts.)
    expect(hang.abortedInTime).toBe(true);
    expect(hang.released).toBe(false);
    hang.release();
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      status: "enriching",
      address: null,
      year_built: null,
      climate_zone: null,
      energy_certificate: null,
      ite_fetch_status: "pending",
    });
    expect(body.enrichment.cadastre).toMatchObject({ status: "pending" });

    const final = await waitFinal(body.property_id);
    expect(final).toMatchObject({
      status: "enriched",
      municipality: "Madrid",
      ccaa: "Comunidad de Madrid",
      climate_zone: "D3",
      ite_fetch_status: "not_required",
    });
    expect(final.energy_certificate).toMatchObject({ source: "estimated" });
    const events = await eventsOf(body.property_id);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ property_id: body.property_id, status: "enriched" });
  });

  it("retries only the source that failed", async () => {
    const reference = ref("0002");
    const body = await (await create(reference)).json();
    expect(body.enrichment.energy_certificate).toMatchObject({
      status: "pending",
      attempts: 1,
      error: "registry_unavailable",
    });
    const final = await waitFinal(body.property_id);
    expect(final.status).toBe("enriched");
    const mine = calls.filter((c) => c.includes(reference));
    expect(mine.filter((c) => c.startsWith("cadastre"))).toHaveLength(1);
    expect(mine.filter((c) => c.startsWith("ite"))).toHaveLength(1);
    expect(mine.filter((c) => c.startsWith("energy_certificate"))).toEqual([
      `energy_certificate:${reference}:1`,
      `energy_certificate:${reference}:2`,
    ]);
    expect(await eventsOf(body.property_id)).toHaveLength(1);
  });

  it("gives up on a source after all retries: failed, partially_enriched", async () => {
    const reference = ref("0003");
    const body = await (await create(reference)).json();
    const final = await waitFinal(body.property_id);
    expect(final).toMatchObject({ status: "partially_enriched", ite_fetch_status: "failed" });
    expect(final.enrichment.ite).toMatchObject({ status: "failed", attempts: 4, error: "registry_unavailable" });
    expect(final.enrichment.cadastre.status).toBe("completed");
    expect(calls.filter((c) => c.startsWith(`ite:${reference}`))).toHaveLength(4);
    expect(await eventsOf(body.property_id)).toHaveLength(1);
  });

  it("a reference the cadastre does not know is final at once: not_found, no event", async () => {
    const res = await create(ref("0004"));
    const body = await res.json();
    expect(body).toMatchObject({ status: "not_found", ite_fetch_status: "not_found", energy_certificate: null });
    expect(body.enriched_at).not.toBeNull();
    await sleep(2500); // the durable run finds nothing to do
    expect(await eventsOf(body.property_id)).toHaveLength(0);
  });

  it("finished inline: final at the response, no event", async () => {
    const body = await (await create(ref("0006"))).json();
    expect(body.status).toBe("enriched");
    await sleep(2500);
    expect(await eventsOf(body.property_id)).toHaveLength(0);
  });

  it("cadastre failing first: certificate and ITE wait for it, then run", async () => {
    const reference = ref("0005");
    const body = await (await create(reference)).json();
    expect(body.enrichment).toMatchObject({
      cadastre: { status: "pending", error: "upstream_html" },
      ite: { status: "pending", attempts: 0 },
    });
    const final = await waitFinal(body.property_id);
    expect(final.status).toBe("enriched");
    expect(final.enrichment.cadastre.attempts).toBe(2);
  });
});
