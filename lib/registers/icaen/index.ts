// Catalonia: ICAEN's register of energy certificates (Socrata `j6ii-t3w2`), asked live by
// reference (certificates, and the IITE code that evidences an inspection) and imported whole.
import { z } from "zod";
import type { FormatEvidence } from "../datasets";
import type { LiveRegister, Register } from "../register";
import { CATALONIA_BASE_URL, CATALONIA_PROVIDER, CATALONIA_REGISTRY, cataloniaCertificates } from "./client";
import { cataloniaInspections } from "./client";
import { cataloniaDataset } from "./dataset";

const EVIDENCE: FormatEvidence = {
  level: "confirmed",
  citations: [
    "ICAEN's field dictionary of j6ii-t3w2 (fndvit/mds-udg-viz-i-dgpcd-hackathon-25, src/dades/font/dictionary.json)",
    "Socrata's SODA API documentation (dev.socrata.com)",
    "independent peer clients (casedra, habitalens) query it by reference",
  ],
};

/** A Barcelona parcel of the ICAEN fixtures; any answer, certificates or none, proves the register. */
const CHECK = { reference: "0625102DF3802F0001QI", province: "08" };

const base = (s: Readonly<Record<string, string | undefined>>) => s.CEE_CATALONIA_BASE_URL ?? CATALONIA_BASE_URL;
const live = { provider: CATALONIA_PROVIDER, registry: CATALONIA_REGISTRY, evidence: EVIDENCE, check: CHECK };

export const icaen: Register = {
  id: "icaen",
  publisher: "Institut Català d'Energia (ICAEN), Generalitat de Catalunya",
  community: "Cataluña",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Institut Català d'Energia (ICAEN), Generalitat de Catalunya",
    source:
      "the Generalitat's open-data portal states CC BY 4.0 for its datasets (portal-wide, not re-checked per dataset)",
  },
  settings: {
    /** Socrata host of the dataset (a proxy or replay). */
    CEE_CATALONIA_BASE_URL: z.url().optional(),
    /** dev.socrata.com app token: without one, calls share a throttled pool (also read by lib/config for downloads). */
    SOCRATA_APP_TOKEN: z.string().min(1).optional(),
  },
  live: [
    {
      ...live,
      source: "energy_certificate",
      connect: (s) => cataloniaCertificates(base(s), s.SOCRATA_APP_TOKEN),
    } satisfies LiveRegister,
    // The IITE code on ICAEN's certificates: evidence an inspection exists; no inspection register.
    {
      ...live,
      source: "ite",
      holds: "codes",
      connect: (s) => cataloniaInspections(base(s), s.SOCRATA_APP_TOKEN),
    } satisfies LiveRegister,
  ],
  datasets: [cataloniaDataset],
  budget: { name: "icaen", rate: 2 },
};
