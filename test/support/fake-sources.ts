// Programmable registers for API tests: instant, counted answers (the real sandbox and live
// registers have their own tests). Madrid facts, so derived fields are predictable.
import type { CadastreFacts, Sources } from "@/lib/enrichment/sources/types";
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

export function fakeSources(calls: string[] = []): Record<Mode, Sources> {
  const sources: Sources = {
    cadastre: {
      async lookup({ reference }) {
        calls.push(`cadastre:${reference}`);
        return { kind: "found", data: { reference, ...MADRID_FACTS } };
      },
    },
    energyCertificate: {
      async lookup({ reference }) {
        calls.push(`energy_certificate:${reference}`);
        return { kind: "found", data: { rating: "E", source: "registry", registry: "fake", certificate_id: "C-1", issued_on: "2020-01-01" } };
      },
    },
    ite: {
      async lookup({ reference }) {
        calls.push(`ite:${reference}`);
        return { kind: "found", data: { status: "unsupported" } };
      },
    },
  };
  return { test: sources, live: sources };
}
