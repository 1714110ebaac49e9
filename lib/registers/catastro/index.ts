// The national cadastre, Catastro's OVC services (Consulta_DNPRC, Consulta_CPMRC): every community
// whose cadastre is the DGC's. Its client is the engine's own (lib/enrichment/sources/cadastre: the
// sandbox and the answer parser share it); this module gives it its endpoints and evidence.
import { z } from "zod";
import { PROVIDERS } from "@/lib/enrichment/sources/types";
import type { Register } from "../register";

/** Godelleta's recorded unit (Catastro answers it). */
const GODELLETA_UNIT = "2749704YJ0624N0001DI";

export const catastro: Register = {
  id: "catastro",
  publisher: "Dirección General del Catastro",
  community: "catastro",
  licence: {
    name: "Catastro's terms of reuse (free, with source notice)",
    attribution: "Dirección General del Catastro",
    source:
      "DGC resolution of 23 March 2011 on access to cadastral data, condition 12: cite the Dirección General del " +
      "Catastro as source, with the date of access (as the OpenStreetMap wiki's ES:Catastro español summarises it)",
  },
  settings: {
    CATASTRO_BASE_URL: z.url().optional(),
    /** Consulta_CPMRC; default CATASTRO_BASE_URL when that is set (a proxy or replay of both), else Catastro's. */
    CATASTRO_COORDINATES_BASE_URL: z.url().optional(),
  },
  live: [
    {
      source: "cadastre",
      provider: PROVIDERS.catastro,
      registry: "Dirección General del Catastro (OVC)",
      evidence: {
        level: "confirmed",
        citations: [
          "DGC's manual of the OVC services (Consulta_DNPRC, Consulta_CPMRC)",
          "at least eight independent public clients (shared research, registers-coverage.md)",
          "answers recorded from the live service (lib/enrichment/sources/cadastre/fixtures)",
        ],
      },
      check: { reference: GODELLETA_UNIT, province: "46" },
      connect: (s) => ({
        baseUrl: s.CATASTRO_BASE_URL,
        coordinatesBaseUrl: s.CATASTRO_COORDINATES_BASE_URL ?? s.CATASTRO_BASE_URL,
      }),
    },
  ],
  datasets: [],
  budget: { name: "catastro", rate: 10 },
};
