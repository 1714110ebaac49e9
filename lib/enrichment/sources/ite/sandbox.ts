// Sandbox ITE registry (test mode): the real first-inspection rules decide `not_required` and
// `unsupported` (no confirmed rule); where an inspection is due, a deterministic record per building
// (the 14-character parcel) is found or not. Scenario 9300 always fails.
import { madridDay } from "@/lib/domain";
import { ccaaForProvince } from "@/lib/reference-data";
import { PROVIDERS, type IteSource } from "../types";
import { between, delay, draw, pick, scenarioOf, SCENARIOS, TIMEOUT, type SandboxOptions } from "../sandbox";
import { firstInspectionAge, iteRequirement, RENEWAL_YEARS } from "./rules";

/** Share of buildings due an inspection that have one on record. */
const INSPECTED_SHARE = 0.6;
/** Results of the inspections on record: mostly favourable, some with conditions. */
const RESULTS = [
  ...Array<"favourable">(14).fill("favourable"),
  "conditional",
  "conditional",
  "conditional",
  "unfavourable",
  "unfavourable",
  "unfavourable",
] as const;

export interface SandboxIteOptions extends SandboxOptions {
  /** The date building ages are counted at (tests); default now. */
  now?: () => Date;
  /**
   * Whether the province's register holds only inspection-report codes (the live registers' own
   * `holds`): there, as live, a building without one is `unsupported`, not `not_found`.
   */
  holdsCodes?: (provinceCode: string) => boolean;
}

export function createSandboxIte(options: SandboxIteOptions = {}): IteSource {
  return {
    async lookup({ reference, signal, facts }) {
      if (!(await delay(options.latencyMs ?? 0, signal))) return TIMEOUT;
      if (scenarioOf(reference) === SCENARIOS.failingIte) {
        return {
          kind: "error",
          code: "registry_unavailable",
          message: "sandbox scenario 9300: the ITE registry always fails",
        };
      }
      const now = options.now?.() ?? new Date();
      const ccaa = facts.provinceCode ? ccaaForProvince(facts.provinceCode) : null;
      const requirement = iteRequirement({ ccaa, yearBuilt: facts.yearBuilt, now });
      if (requirement === "not_required")
        return {
          kind: "found",
          data: { status: "not_required" },
          provider: PROVIDERS.sandbox,
          summary: { register: "sandbox", ccaa },
        };
      if (requirement === "unknown")
        return {
          kind: "found",
          data: { status: "unsupported" },
          provider: PROVIDERS.sandbox,
          summary: { register: "sandbox", ccaa },
        };

      const next = draw(`ite:${reference.slice(0, 14)}`);
      const year = Number(madridDay(now).slice(0, 4));
      // Due since `yearBuilt + threshold`; the record on file is the latest one, within a period.
      const firstDue = facts.yearBuilt! + firstInspectionAge(ccaa)!;
      const earliest = Math.max(firstDue, year - RENEWAL_YEARS);
      if (next() >= INSPECTED_SHARE || earliest >= year) {
        if (facts.provinceCode && options.holdsCodes?.(facts.provinceCode)) {
          const summary = { register: "sandbox", ccaa, reason: "no_inspection_code" };
          return { kind: "found", data: { status: "unsupported" }, provider: PROVIDERS.sandbox, summary };
        }
        return { kind: "not_found", provider: PROVIDERS.sandbox, summary: { register: "sandbox", ccaa } };
      }
      const inspectedOn = new Date(
        Date.UTC(between(next, earliest, year - 1), between(next, 0, 11), between(next, 1, 28)),
      );
      return {
        kind: "found",
        data: {
          status: "found",
          inspectedOn: inspectedOn.toISOString().slice(0, 10),
          result: pick(next, RESULTS),
          registry: "sandbox",
          reference: `SBX-ITE-${reference.slice(0, 14)}-${inspectedOn.getUTCFullYear()}`,
        },
        provider: PROVIDERS.sandbox,
        summary: { register: "sandbox", ccaa },
      };
    },
  };
}
