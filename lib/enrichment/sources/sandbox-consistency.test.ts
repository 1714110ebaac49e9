// The sandbox registers through the engine, over many references: every member deterministic and
// consistent with the others (what a partner's tests can rely on in test mode).
import { describe, expect, it } from "vitest";
import { checkLetters } from "@/lib/cadastral-reference";
import { loadConfig } from "@/lib/config";
import { addYears } from "@/lib/domain";
import { municipalityByIne } from "@/lib/reference-data";
import { newDraft, runUntil } from "../engine";
import { createSources } from ".";

// Test mode asks no live register: no routes.
const sources = createSources(loadConfig({}), {
  live: { cadastre: {}, energyCertificate: new Map(), ite: new Map() },
}).test;
const parcels = Array.from({ length: 60 }, (_, i) => `${String(1000000 + i * 7919).slice(0, 7)}VK3799G`);
const references = parcels.flatMap((p) => ["0001", "0002", "0003"].map((u) => p + u + checkLetters(p + u)));

async function enrich(reference: string) {
  const draft = newDraft(reference, "test");
  const errors: unknown[] = [];
  await runUntil(
    draft,
    { sources, trigger: "inline", maxAttempts: 5, onError: (e) => errors.push(e) },
    Date.now() + 60_000,
  );
  expect(errors).toEqual([]);
  return draft;
}

/** Great-circle distance in km. */
const km = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) => {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
};

describe("the sandbox's members, through the engine", () => {
  it("the same reference always gives the same Property data", async () => {
    for (const reference of references.slice(0, 20))
      expect((await enrich(reference)).data).toEqual((await enrich(reference)).data);
  });

  it("members agree with each other", async () => {
    const year = new Date().getUTCFullYear();
    let parking = 0;
    let certified = 0;
    for (const reference of references) {
      const { data } = await enrich(reference);
      const town = municipalityByIne(data.municipality_code!)!;
      // A point inside the municipality's circle (half its radius around the capital), in its province.
      expect(km(data.location!, town) * 1000, reference).toBeLessThanOrEqual(
        500 * Math.sqrt(town.areaKm2 / Math.PI) + 1,
      );
      expect(data.postal_code!.slice(0, 2)).toBe(data.municipality_code!.slice(0, 2));
      // The unit named in the address is the unit member.
      expect(data.address).toContain(`Pl:${data.unit!.floor} Pt:${data.unit!.door}`);
      if (data.use === "parking_storage") {
        parking++;
        expect(data.energy_certificate, reference).toBeNull(); // nothing to certify, nothing to estimate
      }
      if (data.energy_certificate?.source === "registry") {
        certified++;
        const c = data.energy_certificate;
        // 10 years from issue, 5 for a G issued since RD 390/2021; registered within a month of it.
        const years = c.rating === "G" && c.issued_on! >= "2021-06-02" ? 5 : 10;
        expect(c.valid_until).toBe(addYears(c.issued_on!, years));
        expect(c.valid_until_source).toBe("derived");
        const days = (Date.parse(c.registered_on!) - Date.parse(c.issued_on!)) / 86_400_000;
        expect(days >= 0 && days <= 30, reference).toBe(true);
        expect(Number(data.energy_certificate.issued_on!.slice(0, 4))).toBeGreaterThan(data.year_built!);
      }
      // A young building is not due an inspection anywhere.
      if (data.year_built! > year - 30)
        expect(["not_required", "unsupported"], reference).toContain(data.ite_fetch_status);
      if (data.ite_fetch_status === "not_required") expect(data.ite!.next_due_on! > `${year}`).toBe(true);
      if (data.ite_fetch_status === "found") expect(data.ite!.next_due_on).toBe(addYears(data.ite!.inspected_on!, 10));
    }
    expect(parking).toBeGreaterThan(0);
    expect(certified).toBeGreaterThan(0);
  });
});
