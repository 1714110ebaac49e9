// Aragón: the register of energy certificates, GA_OD_Core view 237, asked live by reference and
// imported whole.
import { z } from "zod";
import type { Register } from "../register";
import { ARAGON_BASE_URL, ARAGON_PROVIDER, ARAGON_REGISTRY, aragonCertificates } from "./client";
import { aragonDataset } from "./dataset";

export const aragon: Register = {
  id: "aragon",
  publisher: "Gobierno de Aragón",
  community: "Aragón",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Gobierno de Aragón (Aragón Open Data)",
    source: "Aragón Open Data states CC BY 4.0 for its datasets (portal-wide, not re-checked for view 237)",
  },
  settings: {
    /** GA_OD_Core host of the view (a proxy or replay). */
    CEE_ARAGON_BASE_URL: z.url().optional(),
  },
  live: [
    {
      source: "energy_certificate",
      provider: ARAGON_PROVIDER,
      registry: ARAGON_REGISTRY,
      evidence: {
        level: "confirmed",
        citations: [
          "aragonopendata/ga-od-core-v2, src/gaodcore/views.py and connectors.py: the API's parameters and answer",
          "view 237's columns: NBEM's Aragón script and independent public analyses of the downloaded view",
        ],
      },
      // A Zaragoza-province parcel of the register index fixtures: any answer proves the view.
      check: { reference: "7541901XM8174S0001SQ", province: "50" },
      connect: (s) => aragonCertificates(s.CEE_ARAGON_BASE_URL ?? ARAGON_BASE_URL),
    },
  ],
  datasets: [aragonDataset],
  budget: { name: "aragon", rate: 5 },
};
