// The engine on its own: registers as plain objects, no database, no queue.
import { describe, expect, it } from "vitest";
import { Property } from "@/lib/domain";
import { certificateOf, finalStatus, newDraft, normalizeUse, runUntil } from "./engine";
import type { CadastreFacts, RegistryCertificate, Sources } from "./sources/types";

const FACTS: CadastreFacts = {
  reference: "9398516VK3799G0002SU",
  kind: "urban",
  address: "CL SAN RESTITUTO 72 C Pl:01 Pt:01 28039 MADRID (MADRID)",
  municipality: "MADRID",
  province: "MADRID",
  provinceCode: "28",
  municipalityCode: "28079",
  use: "Residencial",
  surfaceM2: 125,
  yearBuilt: 1997,
  plotAreaM2: null,
  unit: { staircase: null, floor: "01", door: "01" },
  postalCode: "28039",
  location: { latitude: 40.45, longitude: -3.65 },
};

const CERTIFICATE: RegistryCertificate = {
  rating: "D",
  emissionsRating: "E",
  primaryEnergyKwhM2Year: 150.2,
  emissionsKgCo2M2Year: 33.1,
  issuedOn: "2014-03-10",
  validUntil: null,
  scope: "building",
  registry: "R",
  certificateId: "X-1",
};

function sources(
  overrides: Partial<{ facts: CadastreFacts; certificate: RegistryCertificate | null; ite: "none" | "inspected" }> = {},
): Sources {
  const facts = overrides.facts ?? FACTS;
  return {
    cadastre: { lookup: async () => ({ kind: "found", data: facts, provider: "catastro-ovc" }) },
    energyCertificate: {
      lookup: async () =>
        overrides.certificate === null
          ? { kind: "not_found", provider: "icaen-socrata" }
          : { kind: "found", data: overrides.certificate ?? CERTIFICATE, provider: "icaen-socrata" },
    },
    ite: {
      lookup: async () =>
        overrides.ite === "inspected"
          ? {
              kind: "found",
              data: {
                status: "found",
                inspectedOn: "2021-05-04",
                result: "conditional",
                registry: "R",
                reference: "ITE-9",
              },
              provider: "gva-gesiee",
            }
          : { kind: "not_found", provider: "gva-gesiee" },
    },
  };
}

/** A bug in a step fails the test (in production the App's logger is told). */
const failOn = (error: unknown) => {
  throw error;
};

async function run(reference: string, s: Sources) {
  const draft = newDraft(reference, "live");
  await runUntil(draft, { sources: s, trigger: "inline", maxAttempts: 3, onError: failOn }, Date.now() + 5_000);
  return draft;
}

describe("the engine's Property members", () => {
  it("fills every member from the registers, with each source's provider", async () => {
    const draft = await run("9398516VK3799G0002SU", sources({ ite: "inspected" }));
    expect(finalStatus(draft)).toBe("enriched");
    expect(draft.data).toMatchObject({
      municipality: "Madrid",
      ccaa: "Comunidad de Madrid",
      climate_zone: "D3",
      year_built: 1997,
      use: "residential",
      use_label: "Residencial",
      built_area_m2: 125,
      plot_area_m2: null,
      units_in_parcel: null,
      unit: { staircase: null, floor: "01", door: "01" },
      postal_code: "28039",
      municipality_code: "28079",
      location: { latitude: 40.45, longitude: -3.65 },
      energy_certificate: {
        source: "registry",
        rating: "D",
        valid_until: "2024-03-10",
        scope: "building",
        probabilities: null,
      },
      ite_fetch_status: "found",
      // The next inspection is 10 years after the latest.
      ite: {
        status: "found",
        inspected_on: "2021-05-04",
        result: "conditional",
        next_due_on: "2031-05-04",
        registry: "R",
        reference: "ITE-9",
      },
    });
    expect(Object.fromEntries(Object.entries(draft.sources).map(([name, s]) => [name, s.provider]))).toEqual({
      cadastre: "catastro-ovc",
      energy_certificate: "icaen-socrata",
      ite: "gva-gesiee",
    });
    expect(draft.attempts.map((a) => a.provider)).toEqual(["catastro-ovc", "icaen-socrata", "gva-gesiee"]);
  });

  it("a parcel has no unit; no certificate means an estimate, said by its provider; no inspection on record: the rules' first due date", async () => {
    const parcel = { ...FACTS, reference: "9398516VK3799G", units: 18, unit: null };
    const draft = await run(
      "9398516VK3799G",
      sources({ facts: { ...parcel, unit: { staircase: "1", floor: "00", door: "A" } }, certificate: null }),
    );
    expect(draft.data).toMatchObject({
      unit: null,
      units_in_parcel: 18,
      energy_certificate: { source: "estimated" },
      ite_fetch_status: "not_found",
    });
    expect(draft.sources.energy_certificate.provider).toBe("estimate");
    // Madrid: first inspection at 30 years, so a 1997 building is due by the end of 2027.
    const overdue = "2027-12-31" < new Date().toISOString().slice(0, 10);
    expect(draft.data.ite).toEqual({
      status: "not_found",
      inspected_on: null,
      result: null,
      next_due_on: "2027-12-31",
      overdue,
      registry: null,
      reference: null,
    });
  });

  it("test mode keeps the sandbox as the provider of an estimate", async () => {
    const s = sources({ certificate: null });
    s.energyCertificate = { lookup: async () => ({ kind: "not_found", provider: "sandbox" }) };
    const draft = await run("9398516VK3799G0002SU", s);
    expect(draft.data.energy_certificate).toMatchObject({ source: "estimated" });
    expect(draft.sources.energy_certificate.provider).toBe("sandbox");
  });

  it("a permanent failure is not retried: the source fails at once and the others settle", async () => {
    const s = sources();
    s.cadastre = {
      lookup: async () => ({
        kind: "error",
        code: "catastro_17",
        message: "LA REFERENCIA CATASTRAL ES OBLIGATORIA",
        provider: "catastro-ovc",
        permanent: true,
      }),
    };
    const draft = await run("9398516VK3799G0002SU", s);
    expect(draft.sources.cadastre).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: "catastro_17",
      provider: "catastro-ovc",
    });
    expect(finalStatus(draft)).toBe("partially_enriched");
    expect(draft.data.ite_fetch_status).toBe("failed");
  });

  it("the draft's data is a valid Property's data", async () => {
    const draft = await run("9398516VK3799G0002SU", sources({ ite: "inspected" }));
    const source = {
      status: "completed",
      attempts: 1,
      updated_at: new Date().toISOString(),
      error: null,
      provider: "x",
      as_of: null,
      retrieved_at: null,
      dataset: null,
      licence: null,
    } as const;
    const now = new Date().toISOString();
    expect(() =>
      Property.parse({
        property_id: "00000000-0000-4000-8000-000000000000",
        cadastral_reference: "9398516VK3799G0002SU",
        status: "enriched",
        ...draft.data,
        enrichment: { cadastre: source, energy_certificate: source, ite: source },
        attribution: [],
        created_at: now,
        updated_at: now,
        enriched_at: now,
      }),
    ).not.toThrow();
  });
});

describe("certificateOf", () => {
  const now = new Date("2026-11-24T12:00:00Z");
  it("valid for 10 years from issue when the registry gives no end; expired against today", () => {
    expect(certificateOf({ ...CERTIFICATE, issuedOn: "2017-01-31" }, now)).toMatchObject({
      valid_until: "2027-01-31",
      expired: false,
    });
    expect(certificateOf({ ...CERTIFICATE, issuedOn: "2016-11-23" }, now)).toMatchObject({
      valid_until: "2026-11-23",
      expired: true,
    });
  });
  it("the registry's own end wins; without either date, validity and expiry are unknown", () => {
    expect(certificateOf({ ...CERTIFICATE, issuedOn: null, validUntil: "2029-06-12" }, now)).toMatchObject({
      issued_on: null,
      valid_until: "2029-06-12",
      valid_until_source: "registry",
      expired: false,
    });
    expect(certificateOf({ ...CERTIFICATE, issuedOn: null, validUntil: null }, now)).toMatchObject({
      valid_until: null,
      valid_until_source: "unknown",
      expired: null,
    });
  });
  it("a G issued since 2021-06-02 is valid 5 years; 29 February ends on 28 February", () => {
    expect(certificateOf({ ...CERTIFICATE, rating: "G", issuedOn: "2021-06-02" }, now)).toMatchObject({
      valid_until: "2026-06-02",
      valid_until_source: "derived",
      expired: true,
    });
    expect(certificateOf({ ...CERTIFICATE, rating: "G", issuedOn: "2021-06-01" }, now)).toMatchObject({
      valid_until: "2031-06-01",
      expired: false,
    });
    expect(certificateOf({ ...CERTIFICATE, issuedOn: "2020-02-29" }, now)).toMatchObject({
      valid_until: "2030-02-28",
      valid_until_source: "derived",
    });
  });
  it("a registration date is kept as such and dates no validity", () => {
    expect(
      certificateOf({ ...CERTIFICATE, issuedOn: null, registeredOn: "2015-03-02", validUntil: null }, now),
    ).toMatchObject({
      issued_on: null,
      registered_on: "2015-03-02",
      valid_until: null,
      valid_until_source: "unknown",
      expired: null,
    });
  });
});

describe("normalizeUse", () => {
  it.each([
    ["Residencial", "residential"],
    ["Almacen-Estacionamiento", "parking_storage"],
    ["Comercial", "commercial"],
    ["Oficinas", "office"],
    ["Industrial", "industrial"],
    ["Ocio y Hostelería", "hospitality_leisure"],
    ["Religioso", "religious"],
    ["Deportivo", "sports"],
    ["Sanidad y Beneficencia", "public_services"],
    ["Cultural", "public_services"],
    ["Edificio Singular", "public_services"],
    ["Agrario", "agricultural"],
    ["Obras de urbanización y jardinería, suelos sin edificar", "land"],
    ["Something new", "other"],
  ])("%s → %s", (label, use) => {
    expect(normalizeUse(label)).toBe(use);
  });
  it("null stays null", () => expect(normalizeUse(null)).toBeNull());
});
