// What the three sandbox registers (test mode) share: the contract's scenario references, a
// deterministic random stream per reference, and latency that honours the abort signal.
import { createHash } from "node:crypto";
import { checkLetters, unitNumber } from "@/lib/cadastral-reference";
import type { SourceOutcome } from "./types";

/** Scenario unit numbers (characters 15-18 of a 20-character reference), per the contract. */
export const SCENARIOS = {
  /** The cadastre's first attempt misses the create deadline; the retry succeeds. */
  slowCadastre: "9100",
  /** The energy certificate registry fails attempts 1 and 2, then answers. */
  flakyCertificate: "9200",
  /** The ITE registry always fails. */
  failingIte: "9300",
  /** The cadastre does not know the reference. */
  unknownReference: "9404",
} as const;

export type ScenarioUnit = (typeof SCENARIOS)[keyof typeof SCENARIOS];

/** The scenario a reference selects, or null (other `9xxx` units behave like any reference). */
export function scenarioOf(reference: string): ScenarioUnit | null {
  const unit = unitNumber(reference);
  return Object.values(SCENARIOS).find((u) => u === unit) ?? null;
}

/**
 * A deterministic stream of numbers in [0, 1) for a key: sfc32 seeded with SHA-256 of the key, so
 * any number of draws stay independent (a bare digest would repeat after eight).
 */
export function draw(key: string): () => number {
  const digest = createHash("sha256").update(key).digest();
  let [a, b, c, d] = [digest.readUInt32LE(0), digest.readUInt32LE(4), digest.readUInt32LE(8), digest.readUInt32LE(12)];
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 2 ** 32;
  };
}

export const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
/** An integer in [min, max]. */
export const between = (next: () => number, min: number, max: number): number =>
  min + Math.floor(next() * (max - min + 1));

const DIGITS = "0123456789";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * A valid 20-character reference that selects `unit`'s scenario: a synthetic urban parcel drawn
 * from `seed` (7 digits + map sheet `LLDDDDL`), the unit number, and correct check letters. The
 * same seed gives the same parcel, so the four scenarios can share one building.
 */
export function scenarioReference(unit: ScenarioUnit, seed: string | number = 0): string {
  const next = draw(`scenario-parcel:${seed}`);
  const parcel = [..."DDDDDDDLLDDDDL"].map((kind) => pick(next, [...(kind === "D" ? DIGITS : LETTERS)])).join("");
  return parcel + unit + checkLetters(parcel + unit);
}

/**
 * `count` valid references on parcels drawn from `seed`, one parcel each: all of `scenario`'s unit,
 * or else units of 0001–8999 (never `9xxx`, so none selects a scenario), with their check letters.
 * Test data for partners (`finca sandbox refs`, the sample portfolios).
 */
export function sandboxReferences(count: number, scenario: ScenarioUnit | null, seed: string): string[] {
  return Array.from({ length: count }, (_, i) => {
    const parcel = scenarioReference(SCENARIOS.slowCadastre, `${seed}:${i}`).slice(0, 14);
    const unit = scenario ?? String(1 + Math.floor(draw(`sandbox-unit:${seed}:${i}`)() * 8999)).padStart(4, "0");
    return parcel + unit + checkLetters(parcel + unit);
  });
}

export const TIMEOUT: SourceOutcome<never> = {
  kind: "error",
  code: "timeout",
  message: "aborted by the deadline",
  provider: "sandbox",
};

/** Waits `ms`; resolves false at once if the signal aborts first. */
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
  /** Added to every answer, e.g. so benchmarks see register-like latency. Default 0. */
  latencyMs?: number;
}
