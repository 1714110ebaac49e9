// What the three sandbox registers share: a deterministic hash of the reference, the scenario
// unit numbers of the contract, and latency that honours the abort signal.
import { createHash } from "node:crypto";
import { checkLetters } from "@/lib/cadastral-reference";
import type { SourceOutcome } from "./types";

/** Scenario unit numbers (characters 15-18 of a 20-character reference). */
export const SCENARIOS = {
  slowCadastre: "9100",
  flakyCertificate: "9200",
  failingIte: "9300",
  unknownReference: "9404",
} as const;

export function scenarioOf(reference: string): string | null {
  const unit = reference.length === 20 ? reference.slice(14, 18) : "";
  return unit.startsWith("9") ? unit : null;
}

/** A valid reference (correct check letters) for a scenario, for tests and the partner docs. */
export function scenarioReference(unit: string, parcel = "2749704YJ0624N"): string {
  return parcel + unit + checkLetters(parcel + unit);
}

/** Deterministic numbers in [0, 1) drawn from the reference and a salt per register. */
export function draw(reference: string, salt: string): (n?: number) => number {
  const digest = createHash("sha256").update(`${salt}:${reference}`).digest();
  let offset = 0;
  return () => {
    const value = digest.readUInt32BE(offset % 28) / 2 ** 32;
    offset += 4;
    return value;
  };
}

export const TIMEOUT: SourceOutcome<never> = { kind: "error", code: "timeout", message: "aborted by the deadline" };

/** Waits `ms`, or resolves false as soon as the signal aborts. */
export function delay(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export interface SandboxOptions {
  /** Added to every answer (benchmarks use 50 ms). */
  latencyMs?: number;
}
