// Provenance of a live answer that gave data, kept in its summary: the licence and notice of the
// register that gave it, when Finca read it, and its date (a live register answers as of the day
// it is asked). A cached answer keeps the time it was read. An answer without data (not_found,
// then an estimate or the rules) gives no value to attribute.
import { madridDay } from "@/lib/domain";
import type { Provenance, SourceOutcome } from "./types";

export function withProvenance<T>(
  outcome: SourceOutcome<T>,
  provenance: Provenance,
  now = new Date(),
): SourceOutcome<T> {
  if (outcome.kind !== "found") return outcome;
  const read = { ...provenance, retrieved_at: now.toISOString(), as_of: madridDay(now) };
  return { ...outcome, summary: { ...outcome.summary, ...read } };
}
