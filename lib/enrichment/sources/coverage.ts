// Which live registers answer by reference, for which provinces: the facts the coverage table
// (lib/registers/coverage.ts) states. Kept next to the clients so a new client adds its line here.
import type { SourceName } from "@/lib/domain";
import { PROVIDERS } from "./types";
import { ARAGON_PROVINCES } from "./registries/aragon";
import { CATALONIA_PROVINCES } from "./registries/catalonia";
import { VALENCIA_PROVINCES } from "./registries/valencia";

export interface LiveRegister {
  source: SourceName;
  provider: string;
  provinces: ReadonlySet<string> | "all";
}

export const LIVE_REGISTERS: readonly LiveRegister[] = [
  // Catastro covers every province but the foral ones (the coverage table leaves those out).
  { source: "cadastre", provider: PROVIDERS.catastro, provinces: "all" },
  { source: "energy_certificate", provider: PROVIDERS.catalonia, provinces: CATALONIA_PROVINCES },
  { source: "energy_certificate", provider: PROVIDERS.valencia, provinces: VALENCIA_PROVINCES },
  { source: "energy_certificate", provider: PROVIDERS.aragon, provinces: ARAGON_PROVINCES },
  // The IITE code on ICAEN's certificates (evidence of an inspection, see ite/live.ts).
  { source: "ite", provider: PROVIDERS.catalonia, provinces: CATALONIA_PROVINCES },
  { source: "ite", provider: PROVIDERS.gesiee, provinces: VALENCIA_PROVINCES },
];
