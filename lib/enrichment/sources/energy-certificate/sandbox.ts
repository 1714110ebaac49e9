// Sandbox certificate registry (test mode): about half of the rateable units hold a certificate
// (deterministic per reference), its letter drawn from the estimate model for the building, and
// its figures drawn inside that letter's band so letter and numbers agree; the rest are
// `not_found`, which makes the engine estimate. Scenario 9200 fails its first two attempts.
import { RATINGS, type Rating } from "@/lib/domain";
import { estimateProbabilities, ratedUse } from "@/lib/enrichment/estimate";
import { PROVIDERS, type EnergyCertificateSource, type RegistryCertificate } from "../types";
import { between, delay, draw, scenarioOf, SCENARIOS, TIMEOUT, type SandboxOptions } from "../sandbox";

/** Share of rateable units with a registered certificate. */
const CERTIFIED_SHARE = 0.5;
// Existing buildings need a certificate to be sold or let since 1 June 2013 (RD 235/2013); the
// window ends on a fixed day so a reference's certificate never changes.
const FIRST_ISSUE = Date.UTC(2013, 5, 1);
const LAST_ISSUE = Date.UTC(2025, 11, 31);
const DAY_MS = 86_400_000;
const MAX_REGISTRATION_DAYS = 30;

/**
 * Indicative upper bounds per letter (A…F; G is open) for a dwelling: non-renewable primary energy
 * (kWh/m²·year) and CO2 (kg/m²·year). Constructed for the sandbox from the order of magnitude of the
 * residential scale in a winter-D climate; real limits depend on the climate zone.
 */
const PRIMARY_BOUNDS = [40, 65, 100, 155, 320, 390, 520];
const EMISSIONS_BOUNDS = [9, 15, 23, 35, 72, 88, 120];

const bandOf = (bounds: readonly number[], value: number): Rating => RATINGS[bounds.findIndex((b) => value < b)] ?? "G";

function sample(probabilities: Record<Rating, number>, u: number): Rating {
  let cumulative = 0;
  for (const rating of RATINGS) {
    cumulative += probabilities[rating];
    if (u < cumulative) return rating;
  }
  // Rounding can leave the sum a hair under 1.
  return RATINGS.findLast((r) => probabilities[r] > 0)!;
}

export function createSandboxEnergyCertificate(options: SandboxOptions = {}): EnergyCertificateSource {
  return {
    async lookup({ reference, attempt, signal, facts }) {
      if (!(await delay(options.latencyMs ?? 0, signal))) return TIMEOUT;
      if (scenarioOf(reference) === SCENARIOS.flakyCertificate && attempt <= 2) {
        return {
          kind: "error",
          code: "registry_unavailable",
          message: `sandbox scenario 9200: registry unavailable (attempt ${attempt} of 2 failing)`,
          provider: PROVIDERS.sandbox,
        };
      }
      const next = draw(`energy-certificate:${reference}`);
      // Spain's average: the sandbox's letters do not depend on the zone or the community.
      const { yearBuilt, use } = facts;
      const probabilities = estimateProbabilities({ yearBuilt, use, climateZone: null, ccaa: null });
      // Nothing to certify (parking, land...) or no year to shape the letter: no certificate.
      if (!ratedUse(facts.use) || !probabilities || next() >= CERTIFIED_SHARE)
        return { kind: "not_found", provider: PROVIDERS.sandbox, summary: { register: "sandbox" } };
      const rating = sample(probabilities, next());
      const index = RATINGS.indexOf(rating);
      const low = index === 0 ? PRIMARY_BOUNDS[0]! / 2 : PRIMARY_BOUNDS[index - 1]!;
      const primary = Math.round((low + next() * (PRIMARY_BOUNDS[index]! - low)) * 100) / 100;
      // CO2 follows the energy through the fuel mix: 0.17-0.25 kg per kWh of primary energy.
      const emissions = Math.round(primary * (0.17 + 0.08 * next()) * 100) / 100;
      const from = Math.max(FIRST_ISSUE, Date.UTC((facts.yearBuilt ?? 0) + 1, 0, 1));
      const days = Math.max(0, Math.floor((LAST_ISSUE - from) / DAY_MS));
      const issued = from + between(next, 0, days) * DAY_MS;
      const certificateId = `SBX-${facts.provinceCode ?? "00"}-${between(next, 0, 36 ** 6 - 1)
        .toString(36)
        .toUpperCase()
        .padStart(6, "0")}`;
      // Registered within a month of its issue, as registers give both dates (drawn last: the
      // earlier draws, and so every other value, are those of before).
      const registered = issued + between(next, 0, MAX_REGISTRATION_DAYS) * DAY_MS;
      const certificate: RegistryCertificate = {
        rating,
        emissionsRating: bandOf(EMISSIONS_BOUNDS, emissions),
        primaryEnergyKwhM2Year: primary,
        emissionsKgCo2M2Year: emissions,
        issuedOn: new Date(issued).toISOString().slice(0, 10),
        registeredOn: new Date(registered).toISOString().slice(0, 10),
        validUntil: null,
        scope: reference.length === 14 ? "building" : "unit",
        registry: "sandbox",
        certificateId,
      };
      return {
        kind: "found",
        data: certificate,
        provider: PROVIDERS.sandbox,
        summary: { register: "sandbox", certificate_id: certificate.certificateId },
      };
    },
  };
}
