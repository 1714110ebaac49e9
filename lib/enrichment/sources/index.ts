// The registers per mode: test keys get the deterministic sandbox, live keys the real registers.
import type { Config } from "@/lib/config";
import type { Mode } from "@/lib/domain";
import type { LiveRegisters, RegisterBudget, RegisterIndex, Sources } from "./types";
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
 * `live`: the live registers, from the register modules (lib/registers): the cadastre's endpoints and
 *   which register answers each source where;
 * `index`: the local register index, asked before the live registries (live mode only);
 * `breakers`: the process's, one per live register (sandbox registers have none);
 * `budget`: requests per second per register shared by every worker, for durable runs.
 */
export function createSources(
  config: Config,
  options: { live: LiveRegisters; index?: RegisterIndex; breakers?: RegisterBreakers; budget?: RegisterBudget },
): Record<Mode, Sources> {
  const { breakers, budget } = options;
  const latencyMs = config.SANDBOX_LATENCY_MS;
  // One cache per process for all live registers (keys are prefixed per register).
  const cache = memoryCache(50_000);
  const liveCertificate = createLiveEnergyCertificate({
    routes: options.live.energyCertificate,
    cache,
    breakers,
    budget,
  });
  const liveIte = createLiveIte({ routes: options.live.ite, cache, breakers, budget });
  const energyCertificate = options.index ? indexedEnergyCertificate(options.index, liveCertificate) : liveCertificate;
  const ite = options.index ? indexedIte(options.index, liveIte) : liveIte;
  const liveCadastre = createLiveCadastre({ ...options.live.cadastre, cache, breakers, budget });
  const cadastre = options.index ? indexedCadastre(options.index, liveCadastre) : liveCadastre;
  return {
    test: {
      // Scenario 9100 answers after the create deadline (+1 s), so its first attempt always misses it.
      cadastre: createSandboxCadastre({
        latencyMs,
        slowMs: config.SANDBOX_SLOW_MS ?? config.ENRICHMENT_DEADLINE_MS + 1000,
      }),
      energyCertificate: createSandboxEnergyCertificate({ latencyMs }),
      // As live: where a register holds only report codes, a building without one is unsupported.
      ite: createSandboxIte({ latencyMs, holdsCodes: (p) => options.live.ite.get(p)?.holds === "codes" }),
    },
    live: {
      cadastre,
      energyCertificate,
      ite,
    },
  };
}
