// Programmable registers for API tests: instant, counted answers (the real sandbox and live
// registers have their own tests). Madrid facts, so derived fields are predictable.
import type { CadastreFacts, RegistryCertificate, Sources } from "@/lib/enrichment/sources/types";
import type { Mode } from "@/lib/domain";

export const MADRID_FACTS: Omit<CadastreFacts, "reference"> = {
  kind: "urban",
  address: "CL SAN RESTITUTO 72 Pl:01 Pt:A 28039 MADRID (MADRID)",
  municipality: "MADRID",
  province: "MADRID",
  provinceCode: "28",
  municipalityCode: "28079",
  use: "Residencial",
  surfaceM2: 91,
  yearBuilt: 1975,
};

export const FAKE_CERTIFICATE: RegistryCertificate = {
  rating: "E",
  emissionsRating: "E",
  primaryEnergyKwhM2Year: 201.5,
  emissionsKgCo2M2Year: 42.1,
  issuedOn: "2020-01-01",
  validUntil: null,
  scope: "unit",
  registry: "fake",
  certificateId: "C-1",
};

export function fakeSources(calls: string[] = []): Record<Mode, Sources> {
  const sources: Sources = {
    cadastre: {
      async lookup({ reference }) {
        calls.push(`cadastre:${reference}`);
        return { kind: "found", data: { reference, ...MADRID_FACTS }, provider: "sandbox" };
      },
    },
    energyCertificate: {
      async lookup({ reference }) {
        calls.push(`energy_certificate:${reference}`);
        return { kind: "found", data: FAKE_CERTIFICATE, provider: "sandbox" };
      },
    },
    ite: {
      async lookup({ reference }) {
        calls.push(`ite:${reference}`);
        return { kind: "found", data: { status: "unsupported" }, provider: "sandbox" };
      },
    },
  };
  return { test: sources, live: sources };
}
