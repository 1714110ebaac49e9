// Comunitat Valenciana: the register of building assessments (IEE.CV), asked live by parcel.
import { z } from "zod";
import type { Register } from "../register";
import { GESIEE_BASE_URL, GESIEE_PROVIDER, GESIEE_REGISTRY, gesieeInspections } from "./client";

export const gvaGesiee: Register = {
  id: "gva-gesiee",
  publisher: "Generalitat Valenciana",
  community: "Comunitat Valenciana",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Generalitat Valenciana",
    source: "the GVA WFS capabilities of 0801_GESIEE (CC BY 4.0 Generalitat, shared research registers-coverage.md)",
  },
  settings: {
    /** The GVA GESIEE WFS (IEE.CV inspection reports; a proxy or replay). */
    ITE_VALENCIA_BASE_URL: z.url().optional(),
  },
  live: [
    {
      source: "ite",
      provider: GESIEE_PROVIDER,
      registry: GESIEE_REGISTRY,
      evidence: {
        level: "confirmed",
        citations: [
          "the GVA WFS capabilities of 0801_GESIEE ms:GESIEE.Informes (CC BY 4.0 Generalitat, as peers recorded them)",
          "several independent public clients filter 0801_GESIEE ms:GESIEE.Informes by cadastral reference",
        ],
      },
      check: { reference: "2749704YJ0624N0001DI", province: "46" },
      connect: (s) => gesieeInspections(s.ITE_VALENCIA_BASE_URL ?? GESIEE_BASE_URL),
    },
  ],
  datasets: [],
  // One host with the certificates' layer: one budget.
  budget: { name: "gva", rate: 5 },
};
