// Sandbox certificate registry (test mode): about half of the rateable units hold a certificate
// (deterministic per reference), its letter drawn from the estimate model's prior for the year
// built so it looks like the building; the rest are `not_found`, which makes the pipeline estimate.
// Scenario 9200 fails its first two attempts.
import { RATINGS, type Rating } from "@/lib/domain";
import { ratedUse, ratingPrior } from "@/lib/enrichment/estimate";
import type { EnergyCertificateSource, RegistryCertificate } from "../types";
import { between, delay, draw, scenarioOf, SCENARIOS, TIMEOUT, type SandboxOptions } from "../sandbox";

/** Share of rateable units with a registered certificate. */
const CERTIFIED_SHARE = 0.5;
// Existing buildings need a certificate to be sold or let since 1 June 2013 (RD 235/2013); the
// window ends on a fixed day so a reference's certificate never changes.
const FIRST_ISSUE = Date.UTC(2013, 5, 1);
const LAST_ISSUE = Date.UTC(2025, 11, 31);
const DAY_MS = 86_400_000;

function sample(prior: ReadonlyMap<Rating, number>, u: number): Rating {
  let cumulative = 0;
  for (const rating of RATINGS) {
    cumulative += prior.get(rating) ?? 0;
    if (u < cumulative) return rating;
  }
  // Rounding can leave the sum a hair under 1.
  return RATINGS.findLast((r) => (prior.get(r) ?? 0) > 0)!;
}

export function createSandboxEnergyCertificate(options: SandboxOptions = {}): EnergyCertificateSource {
  return {
    async lookup({ reference, attempt, signal, facts }) {
      if (!(await delay(options.latencyMs ?? 0, signal))) return TIMEOUT;
      if (scenarioOf(reference) === SCENARIOS.flakyCertificate && attempt <= 2) {
        return { kind: "error", code: "registry_unavailable", message: `sandbox scenario 9200: registry unavailable (attempt ${attempt} of 2 failing)` };
      }
      const next = draw(`energy-certificate:${reference}`);
      const prior = ratingPrior(facts.yearBuilt);
      // Nothing to certify (parking, land...) or no year to shape the letter: no certificate.
      if (!ratedUse(facts.use) || !prior || next() >= CERTIFIED_SHARE) return { kind: "not_found", summary: { register: "sandbox" } };
      const from = Math.max(FIRST_ISSUE, Date.UTC((facts.yearBuilt ?? 0) + 1, 0, 1));
      const days = Math.max(0, Math.floor((LAST_ISSUE - from) / DAY_MS));
      const certificate: RegistryCertificate = {
        rating: sample(prior, next()),
        source: "registry",
        registry: "sandbox",
        certificate_id: `SBX-${facts.provinceCode ?? "00"}-${between(next, 0, 36 ** 6 - 1).toString(36).toUpperCase().padStart(6, "0")}`,
        issued_on: new Date(from + between(next, 0, days) * DAY_MS).toISOString().slice(0, 10),
      };
      return { kind: "found", data: certificate, summary: { register: "sandbox", certificate_id: certificate.certificate_id } };
    },
  };
}
