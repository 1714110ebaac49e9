// `registers check`: asks each live register once, by a reference it knows, and reports whether it
// answered (reachable), whether the answer could be read (parsed) and how long it took. For
// operators with internet access; the lookups go through the same clients the pipeline uses.
import type { CadastreFacts, Sources, SourceOutcome } from "./types";
import { PROVIDERS } from "./types";

export interface RegisterCheck {
  register: string;
  reference: string;
  reachable: boolean;
  parsed: boolean;
  /** found, not_found, or the error code. */
  outcome: string;
  latencyMs: number;
}

/** Godelleta's recorded unit (Catastro answers it; the GVA registers are asked about it). */
const VALENCIA_UNIT = "2749704YJ0624N0001DI";
/** A Barcelona parcel of the ICAEN fixtures; any answer, certificates or none, proves the register. */
const CATALONIA_UNIT = "0625102DF3802F0001QI";
/** A Zaragoza-province parcel of the register index fixtures: any answer proves the view. */
const ARAGON_UNIT = "7541901XM8174S0001SQ";

const facts = (reference: string, provinceCode: string): CadastreFacts => ({
  reference, kind: "urban", address: null, municipality: null, province: null, provinceCode, municipalityCode: null, use: "Residencial", surfaceM2: null,
  // Old enough that every region's inspection rule sends the ITE lookup to its registry.
  yearBuilt: 1900,
});

/** Errors that mean no answer came back at all; any other error is an answer that could not be read. */
const UNREACHABLE = new Set(["network", "timeout"]);

async function timed(register: string, reference: string, ask: (signal: AbortSignal) => Promise<SourceOutcome<unknown>>): Promise<RegisterCheck> {
  const started = performance.now();
  const outcome = await ask(new AbortController().signal).catch((error: Error): SourceOutcome<unknown> => ({ kind: "error", code: "internal", message: error.message }));
  const latencyMs = Math.round(performance.now() - started);
  if (outcome.kind !== "error") return { register, reference, reachable: true, parsed: true, outcome: outcome.kind, latencyMs };
  return { register, reference, reachable: !UNREACHABLE.has(outcome.code), parsed: false, outcome: `${outcome.code}: ${outcome.message}`, latencyMs };
}

export function checkRegisters(live: Sources): Promise<RegisterCheck[]> {
  const input = (reference: string, signal: AbortSignal) => ({ reference, mode: "live" as const, attempt: 1, signal });
  return Promise.all([
    timed(PROVIDERS.catastro, VALENCIA_UNIT, (signal) => live.cadastre.lookup(input(VALENCIA_UNIT, signal))),
    timed(PROVIDERS.catalonia, CATALONIA_UNIT, (signal) => live.energyCertificate.lookup({ ...input(CATALONIA_UNIT, signal), facts: facts(CATALONIA_UNIT, "08") })),
    timed(PROVIDERS.valencia, VALENCIA_UNIT, (signal) => live.energyCertificate.lookup({ ...input(VALENCIA_UNIT, signal), facts: facts(VALENCIA_UNIT, "46") })),
    timed(PROVIDERS.aragon, ARAGON_UNIT, (signal) => live.energyCertificate.lookup({ ...input(ARAGON_UNIT, signal), facts: facts(ARAGON_UNIT, "50") })),
    timed(`${PROVIDERS.catalonia} (IITE)`, CATALONIA_UNIT, (signal) => live.ite.lookup({ ...input(CATALONIA_UNIT, signal), facts: facts(CATALONIA_UNIT, "08") })),
    timed(PROVIDERS.gesiee, VALENCIA_UNIT, (signal) => live.ite.lookup({ ...input(VALENCIA_UNIT, signal), facts: facts(VALENCIA_UNIT, "46") })),
  ]);
}
