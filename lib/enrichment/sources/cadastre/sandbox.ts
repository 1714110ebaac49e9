// Sandbox cadastre: deterministic facts from real reference data (a real municipality, so a real
// province, community and climate zone), and the contract's scenarios 9100 and 9404.
import { allMunicipalities, municipalityByCatastroCode, provinceByCode, type Municipality } from "@/lib/reference-data";
import type { CadastreFacts, CadastreSource } from "../types";
import { delay, draw, scenarioOf, SCENARIOS, TIMEOUT, type SandboxOptions } from "../sandbox";

const STREETS = ["CL MAYOR", "CL REAL", "AV CONSTITUCION", "CL IGLESIA", "CL SAN JUAN", "PZ ESPAÑA", "CL NUEVA", "AV ANDALUCIA", "CL SOL", "CL MOLINO", "PS MARITIMO", "CL RAMBLA"];
const USES = ["Residencial", "Residencial", "Residencial", "Residencial", "Residencial", "Residencial", "Comercial", "Oficinas", "Industrial", "Almacen-Estacionamiento"];

// Towns the DGC cadastre covers, of some size, so sandbox addresses look like real ones.
const TOWNS: Municipality[] = allMunicipalities().filter((m) => m.catastroCode && m.population >= 5000 && provinceByCode(m.provinceCode)?.catastro);

export interface SandboxCadastreOptions extends SandboxOptions {
  /** How long scenario 9100's first attempt takes (longer than the create deadline). */
  slowMs?: number;
}

export function sandboxFacts(reference: string): CadastreFacts {
  const next = draw(reference, "cadastre");
  // Rustic references start with the Catastro delegation and municipality: honour them when real.
  const rustic = /^\d{5}[A-Z]\d{8}/.test(reference) ? municipalityByCatastroCode(reference.slice(0, 5)) : null;
  const town = rustic ?? TOWNS[Math.floor(next() * TOWNS.length)]!;
  const province = provinceByCode(town.provinceCode)!;
  const units = reference.length === 14 ? 1 + Math.floor(next() * 30) : undefined;
  const floor = 1 + Math.floor(next() * 8);
  const door = "ABCD"[Math.floor(next() * 4)];
  const street = `${STREETS[Math.floor(next() * STREETS.length)]} ${1 + Math.floor(next() * 120)}`;
  return {
    reference,
    kind: rustic ? "rustic" : "urban",
    address: `${street}${units === undefined && !rustic ? ` Pl:${String(floor).padStart(2, "0")} Pt:${door}` : ""} ${town.name.toUpperCase()} (${province.name.toUpperCase()})`,
    municipality: town.name.toUpperCase(),
    province: province.name.toUpperCase(),
    provinceCode: town.provinceCode,
    municipalityCode: town.ine,
    use: rustic ? "Agrario" : USES[Math.floor(next() * USES.length)]!,
    surfaceM2: 40 + Math.floor(next() * 210),
    yearBuilt: 1900 + Math.floor(next() * 125),
    ...(units === undefined ? {} : { units }),
  };
}

export function createSandboxCadastre(options: SandboxCadastreOptions = {}): CadastreSource {
  return {
    async lookup({ reference, attempt, signal }) {
      const scenario = scenarioOf(reference);
      const wait = scenario === SCENARIOS.slowCadastre && attempt === 1 ? (options.slowMs ?? 3000) : 0;
      if (!(await delay((options.latencyMs ?? 0) + wait, signal))) return TIMEOUT;
      if (scenario === SCENARIOS.unknownReference) return { kind: "not_found", summary: { register: "sandbox", cod: 5 } };
      return { kind: "found", data: sandboxFacts(reference), summary: { register: "sandbox" } };
    },
  };
}
