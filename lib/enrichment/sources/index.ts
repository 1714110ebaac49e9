// The registers per mode: test keys get the deterministic sandbox, live keys the real registers.
import type { Config } from "@/lib/config";
import type { Mode } from "@/lib/domain";
import type { LiveRoutes, RegisterBudget, RegisterIndex, Sources } from "./types";
import { indexedCadastre, indexedEnergyCertificate, indexedIte } from "./indexed";
import { createSandboxCadastre } from "./cadastre/sandbox";
import { createSandboxEnergyCertificate } from "./energy-certificate/sandbox";
import { createSandboxIte } from "./ite/sandbox";
import { createLiveCadastre } from "./cadastre/live";
import { createLiveEnergyCertificate } from "./energy-certificate/live";
import { createLiveIte } from "./ite/live";
import { memoryCache } from "./http";
import type { RegisterBreakers } from "./breaker";

/**
 * `routes`: which live register answers where (the region table's, lib/registers);
 * `index`: the local register index, asked before the live registries (live mode only);
 * `breakers`: the process's, one per live register (sandbox registers have none);
 * `budget`: requests per second per register shared by every worker, for durable runs.
 */
export function createSources(
  config: Config,
  options: { routes: LiveRoutes; index?: RegisterIndex; breakers?: RegisterBreakers; budget?: RegisterBudget },
): Record<Mode, Sources> {
  const { breakers, budget } = options;
  const latencyMs = config.SANDBOX_LATENCY_MS;
  // One cache per process for all live registers (keys are prefixed per register).
  const cache = memoryCache(50_000);
  const liveCertificate = createLiveEnergyCertificate({
    cataloniaBaseUrl: config.CEE_CATALONIA_BASE_URL,
    valenciaBaseUrl: config.CEE_VALENCIA_BASE_URL,
    aragonBaseUrl: config.CEE_ARAGON_BASE_URL,
    socrataAppToken: config.SOCRATA_APP_TOKEN,
    routes: options.routes.energyCertificate,
    cache,
    breakers,
    budget,
  });
  const liveIte = createLiveIte({
    cataloniaBaseUrl: config.CEE_CATALONIA_BASE_URL,
    valenciaBaseUrl: config.ITE_VALENCIA_BASE_URL,
    socrataAppToken: config.SOCRATA_APP_TOKEN,
    routes: options.routes.ite,
    cache,
    breakers,
    budget,
  });
  const energyCertificate = options.index ? indexedEnergyCertificate(options.index, liveCertificate) : liveCertificate;
  const ite = options.index ? indexedIte(options.index, liveIte) : liveIte;
  const liveCadastre = createLiveCadastre({
    baseUrl: config.CATASTRO_BASE_URL,
    coordinatesBaseUrl: config.CATASTRO_COORDINATES_BASE_URL ?? config.CATASTRO_BASE_URL,
    cache,
    breakers,
    budget,
  });
  const cadastre = options.index ? indexedCadastre(options.index, liveCadastre) : liveCadastre;
  return {
    test: {
      // Scenario 9100 answers after the create deadline (+1 s), so its first attempt always misses it.
      cadastre: createSandboxCadastre({
        latencyMs,
        slowMs: config.SANDBOX_SLOW_MS ?? config.ENRICHMENT_DEADLINE_MS + 1000,
      }),
      energyCertificate: createSandboxEnergyCertificate({ latencyMs }),
      ite: createSandboxIte({ latencyMs }),
    },
    live: {
      cadastre,
      energyCertificate,
      ite,
    },
  };
}
