// Comunitat Valenciana: the GVA's register of energy certificates, asked live through its WFS layer
// and imported from its yearly files.
import { z } from "zod";
import type { Register } from "../register";
import { VALENCIA_BASE_URL, VALENCIA_PROVIDER, VALENCIA_REGISTRY, valenciaCertificates } from "./client";
import { valenciaDataset } from "./dataset";

export const gvaCee: Register = {
  id: "gva-cee",
  publisher: "Generalitat Valenciana",
  community: "Comunitat Valenciana",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Generalitat Valenciana",
    source: "the GVA WFS capabilities of 26_GCEE (CC BY 4.0 Generalitat, as peers recorded them)",
  },
  settings: {
    /** The GVA WFS endpoint of the certificates (a proxy or replay). */
    CEE_VALENCIA_BASE_URL: z.url().optional(),
  },
  live: [
    {
      source: "energy_certificate",
      provider: VALENCIA_PROVIDER,
      registry: VALENCIA_REGISTRY,
      evidence: {
        level: "confirmed",
        citations: [
          "the GVA WFS capabilities of 26_GCEE ms:CEEEdificios (CC BY 4.0 Generalitat, as peers recorded them)",
          "several independent public clients filter 26_GCEE ms:CEEEdificios by cadastral reference",
        ],
      },
      // Godelleta's recorded unit (Catastro answers it).
      check: { reference: "2749704YJ0624N0001DI", province: "46" },
      connect: (s) => valenciaCertificates(s.CEE_VALENCIA_BASE_URL ?? VALENCIA_BASE_URL),
    },
  ],
  datasets: [valenciaDataset],
  budget: { name: "gva", rate: 5 },
};
