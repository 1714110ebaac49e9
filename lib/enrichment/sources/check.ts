// `registers check`: asks each live register once, by a reference it knows, and reports whether it
// answered (reachable), whether the answer could be read (parsed) and how long it took. For
// operators with internet access; the lookups go through the same clients the pipeline uses, and
// the registers to ask come from the register modules (lib/registers: checkTargets).
import type { SourceName } from "@/lib/domain";
import type { CadastreFacts, Sources, SourceOutcome } from "./types";

/** One live register to ask: its provider, the source it answers, a reference in its territory. */
export interface CheckTarget {
  register: string;
  source: SourceName;
  reference: string;
  /** The reference's province (what the live clients dispatch on). */
  province: string;
}

export interface RegisterCheck {
  register: string;
  source: SourceName;
  reference: string;
  reachable: boolean;
  parsed: boolean;
  /** found, not_found, or the error code. */
  outcome: string;
  latencyMs: number;
}

const facts = (reference: string, provinceCode: string): CadastreFacts => ({
  reference,
  provinceCode,
  kind: "urban",
  use: "Residencial",
  surfaceM2: null,
  address: null,
  municipality: null,
  province: null,
  municipalityCode: null,
  // Old enough that every region's inspection rule sends the ITE lookup to its registry.
  yearBuilt: 1900,
});

/** Errors that mean no answer came back at all; any other error is an answer that could not be read. */
const UNREACHABLE = new Set(["network", "timeout"]);

async function timed(
  target: CheckTarget,
  ask: (signal: AbortSignal) => Promise<SourceOutcome<unknown>>,
): Promise<RegisterCheck> {
  const { register, source, reference } = target;
  const started = performance.now();
  const outcome = await ask(new AbortController().signal).catch(
    (error: Error): SourceOutcome<unknown> => ({
      kind: "error",
      code: "internal",
      message: error.message,
    }),
  );
  const latencyMs = Math.round(performance.now() - started);
  if (outcome.kind !== "error")
    return { register, source, reference, reachable: true, parsed: true, outcome: outcome.kind, latencyMs };
  return {
    register,
    source,
    reference,
    reachable: !UNREACHABLE.has(outcome.code),
    parsed: false,
    outcome: `${outcome.code}: ${outcome.message}`,
    latencyMs,
  };
}

export function checkRegisters(live: Sources, targets: readonly CheckTarget[]): Promise<RegisterCheck[]> {
  return Promise.all(
    targets.map((target) =>
      timed(target, (signal) => {
        const input = { reference: target.reference, mode: "live" as const, attempt: 1, signal };
        if (target.source === "cadastre") return live.cadastre.lookup(input);
        const withFacts = { ...input, facts: facts(target.reference, target.province) };
        return target.source === "energy_certificate"
          ? live.energyCertificate.lookup(withFacts)
          : live.ite.lookup(withFacts);
      }),
    ),
  );
}
