// Sandbox certificate registry: about half of the references hold a certificate (deterministic);
// scenario 9200 fails its first two attempts.
import type { EnergyCertificateSource, RegistryCertificate } from "../types";
import { delay, draw, scenarioOf, SCENARIOS, TIMEOUT, type SandboxOptions } from "../sandbox";

const RATINGS = ["A", "B", "C", "D", "D", "E", "E", "E", "F", "G"] as const;

export function createSandboxEnergyCertificate(options: SandboxOptions = {}): EnergyCertificateSource {
  return {
    async lookup({ reference, attempt, signal }) {
      if (!(await delay(options.latencyMs ?? 0, signal))) return TIMEOUT;
      if (scenarioOf(reference) === SCENARIOS.flakyCertificate && attempt <= 2) {
        return { kind: "error", code: "registry_unavailable", message: "sandbox scenario 9200: registry unavailable" };
      }
      const next = draw(reference, "energy-certificate");
      if (next() < 0.5) return { kind: "not_found", summary: { register: "sandbox" } };
      const issued = new Date(Date.UTC(2014, 0, 1) + Math.floor(next() * 11 * 365) * 86_400_000);
      const certificate: RegistryCertificate = {
        rating: RATINGS[Math.floor(next() * RATINGS.length)]!,
        source: "registry",
        registry: "sandbox",
        certificate_id: `SBX-${Math.floor(next() * 1e9).toString(36).toUpperCase()}`,
        issued_on: issued.toISOString().slice(0, 10),
      };
      return { kind: "found", data: certificate, summary: { register: "sandbox" } };
    },
  };
}
