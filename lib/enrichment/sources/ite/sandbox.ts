// Sandbox ITE registry: the real first-inspection rules, then a deterministic record where an
// inspection is due; scenario 9300 always fails.
import { ccaaForProvince } from "@/lib/reference-data";
import type { IteSource } from "../types";
import { delay, draw, scenarioOf, SCENARIOS, TIMEOUT, type SandboxOptions } from "../sandbox";
import { iteRequirement } from "./rules";

export function createSandboxIte(options: SandboxOptions & { now?: () => Date } = {}): IteSource {
  return {
    async lookup({ reference, facts, signal }) {
      if (!(await delay(options.latencyMs ?? 0, signal))) return TIMEOUT;
      if (scenarioOf(reference) === SCENARIOS.failingIte) {
        return { kind: "error", code: "registry_unavailable", message: "sandbox scenario 9300: ITE registry always fails" };
      }
      const ccaa = facts.provinceCode ? ccaaForProvince(facts.provinceCode) : null;
      const requirement = iteRequirement({ ccaa, yearBuilt: facts.yearBuilt, now: options.now?.() });
      if (requirement === "not_required") return { kind: "found", data: { status: "not_required" } };
      if (requirement === "unknown") return { kind: "found", data: { status: "unsupported" } };
      const next = draw(reference, "ite");
      if (next() < 0.4) return { kind: "not_found", summary: { register: "sandbox" } };
      const year = Math.max(facts.yearBuilt ?? 1950, 2012) + Math.floor(next() * 12);
      return {
        kind: "found",
        data: { status: "found", details: { registry: "sandbox", inspected_on: `${Math.min(year, 2025)}-06-01`, result: next() < 0.8 ? "favorable" : "unfavorable" } },
      };
    },
  };
}
