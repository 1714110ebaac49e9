// Sandbox cadastre (test mode): deterministic facts placed in a real municipality, so the pipeline
// derives a real province, community and climate zone; and the contract's scenarios 9100 and 9404.
// Building facts (town, street, year, main use) hang on the 14-character parcel, unit facts
// (floor, door, surface) on the whole reference: units of one parcel share their building.
import type { Location } from "@/lib/domain";
import {
  municipalityByCatastroCode,
  provinceByCode,
  sandboxMunicipalities,
  type Municipality,
} from "@/lib/reference-data";
import { PROVIDERS, type CadastreFacts, type CadastreSource } from "../types";
import { between, delay, draw, pick, scenarioOf, SCENARIOS, TIMEOUT, type SandboxOptions } from "../sandbox";

const STREETS = [
  "CL MAYOR",
  "CL REAL",
  "AV CONSTITUCION",
  "CL IGLESIA",
  "CL SAN JUAN",
  "PZ ESPAÑA",
  "CL NUEVA",
  "AV ANDALUCIA",
  "CL SOL",
  "CL MOLINO",
  "PS MARITIMO",
  "CL RAMBLA",
  "CL CERVANTES",
  "AV LIBERTAD",
  "CL ERAS",
  "CL FUENTE",
];
// Catastro main uses (`luso`), weighted like a mostly residential stock.
const BUILDING_USES = [
  ...Array<string>(16).fill("Residencial"),
  "Comercial",
  "Oficinas",
  "Industrial",
  "Ocio y Hostelería",
];
/** What the other units of a residential building typically are. */
const ANCILLARY_USES = ["Almacen-Estacionamiento", "Almacen-Estacionamiento", "Comercial"];

const RUSTIC = /^\d{5}[A-Z]\d{8}/;
const FIRST_YEAR = 1900;
const LAST_YEAR = 2024;

export interface SandboxCadastreOptions extends SandboxOptions {
  /** How long scenario 9100's first attempt takes; longer than the create deadline. Default 3000. */
  slowMs?: number;
}

/**
 * A point near the municipal capital, within half the radius of a circle of the municipality's
 * area: inside the real municipality as far as a capital point and an area allow.
 */
function pointIn(town: Municipality, next: () => number): Location {
  const radiusKm = 0.5 * Math.sqrt(town.areaKm2 / Math.PI);
  const distance = radiusKm * Math.sqrt(next());
  const angle = 2 * Math.PI * next();
  const latitude = town.latitude + (distance * Math.sin(angle)) / 111.32;
  const longitude =
    town.longitude + (distance * Math.cos(angle)) / (111.32 * Math.cos((town.latitude * Math.PI) / 180));
  return { latitude: Math.round(latitude * 1e6) / 1e6, longitude: Math.round(longitude * 1e6) / 1e6 };
}

/** The facts the sandbox cadastre answers for a (valid, non-9404) reference. */
export function sandboxFacts(reference: string): CadastreFacts {
  const parcel = reference.slice(0, 14);
  const building = draw(`cadastre:parcel:${parcel}`);
  const rustic = RUSTIC.test(parcel);
  // A rustic reference starts with the Catastro delegation + municipality: honour a real one.
  const town =
    (rustic ? municipalityByCatastroCode(parcel.slice(0, 5)) : null) ?? pick(building, sandboxMunicipalities());
  const province = provinceByCode(town.provinceCode)!;
  const place = `${town.name.toUpperCase()} (${province.name.toUpperCase()})`;
  // Members added later draw from a stream of their own, so the earlier ones stay as they were.
  const extra = draw(`cadastre:parcel-extra:${parcel}`);
  // Postal codes start with the province's two digits.
  const postalCode = `${town.provinceCode}${String(between(extra, 1, 999)).padStart(3, "0")}`;
  const common = {
    reference,
    municipality: town.name.toUpperCase(),
    province: province.name.toUpperCase(),
    provinceCode: town.provinceCode,
    municipalityCode: town.ine,
    location: pointIn(town, extra),
  };
  if (rustic) {
    // Farmland without constructions: no year or built surface, as Catastro answers for most of it.
    const address = `Polígono ${Number(parcel.slice(6, 9))} Parcela ${Number(parcel.slice(9, 14))} ${place}`;
    return {
      ...common,
      kind: "rustic",
      address,
      use: "Agrario",
      surfaceM2: null,
      yearBuilt: null,
      ...(reference.length === 14 ? { units: 1 } : {}),
      plotAreaM2: between(extra, 2_000, 80_000),
      unit: null,
      postalCode: null,
    };
  }
  const street = `${pick(building, STREETS)} ${between(building, 1, 120)}`;
  const yearBuilt = between(building, FIRST_YEAR, LAST_YEAR);
  const buildingUse = pick(building, BUILDING_USES);
  const floors = between(building, 1, 8);
  const plotAreaM2 = between(extra, 120, 1_500);
  if (reference.length === 14) {
    const units = between(building, 1, 4 * floors);
    return {
      ...common,
      kind: "urban",
      address: `${street} ${postalCode} ${place}`,
      use: buildingUse,
      surfaceM2: units * between(building, 50, 120),
      yearBuilt,
      units,
      plotAreaM2,
      unit: null,
      postalCode,
    };
  }
  const unit = draw(`cadastre:unit:${reference}`);
  const use = buildingUse === "Residencial" && unit() < 0.15 ? pick(unit, ANCILLARY_USES) : buildingUse;
  const floor = String(between(unit, 0, floors - 1)).padStart(2, "0");
  const door = pick(unit, ["A", "B", "C", "D"]);
  return {
    ...common,
    kind: "urban",
    address: `${street} Es:1 Pl:${floor} Pt:${door} ${postalCode} ${place}`,
    use,
    surfaceM2: use === "Almacen-Estacionamiento" ? between(unit, 8, 30) : between(unit, 40, 250),
    yearBuilt,
    plotAreaM2,
    unit: { staircase: "1", floor, door },
    postalCode,
  };
}

export function createSandboxCadastre(options: SandboxCadastreOptions = {}): CadastreSource {
  const slowMs = options.slowMs ?? 3000;
  return {
    async lookup({ reference, attempt, signal }) {
      const scenario = scenarioOf(reference);
      const wait = scenario === SCENARIOS.slowCadastre && attempt === 1 ? slowMs : 0;
      if (!(await delay((options.latencyMs ?? 0) + wait, signal))) return TIMEOUT;
      if (scenario === SCENARIOS.unknownReference)
        return { kind: "not_found", provider: PROVIDERS.sandbox, summary: { register: "sandbox", scenario } };
      const facts = sandboxFacts(reference);
      return {
        kind: "found",
        data: facts,
        provider: PROVIDERS.sandbox,
        summary: {
          register: "sandbox",
          province: facts.provinceCode,
          municipality: facts.municipalityCode,
          ...(scenario ? { scenario } : {}),
        },
      };
    },
  };
}
