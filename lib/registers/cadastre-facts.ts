// The cadastre index's answer in the live cadastre's words (CadastreFacts), so the engine cannot
// tell which answered except by the provider: the parcel and its building from the INSPIRE copy
// (location, plot, use, dwellings, year), a unit from the CAT copy (use, built area, year, staircase,
// floor and door). The index answers only what it holds whole: a unit reference needs its CAT unit
// record, a parcel its INSPIRE building or CAT units; anything less is left to the live register,
// which is also what a reference newer than the copy gets.
import type { CadastreFacts, CadastreIndexHit } from "@/lib/enrichment/sources/types";
import { municipalityByCatastroCode, provinceByCode } from "@/lib/reference-data";
import type { CadastreParcelFacts, CadastreRecord } from "./cadastre-lookup";

/** CAT's use keys, labelled as the live register labels them (`luso`); key list from the DGC's dictionary. */
const CAT_USES: Record<string, string> = {
  V: "Residencial",
  A: "Almacen-Estacionamiento",
  I: "Industrial",
  O: "Oficinas",
  C: "Comercial",
  K: "Deportivo",
  T: "Espectaculos",
  G: "Ocio y Hosteleria",
  Y: "Sanidad y Beneficencia",
  E: "Cultural",
  R: "Religioso",
  M: "Obras de urbanizacion y jardineria, suelos sin edificar",
  P: "Edificio singular",
  B: "Almacen agrario",
  J: "Industrial agrario",
  Z: "Agrario",
};

/** INSPIRE's `currentUse` code list (CurrentUseValue), labelled like the live register. */
const INSPIRE_USES: Record<string, string> = {
  "1_residential": "Residencial",
  "2_agriculture": "Agrario",
  "3_industrial": "Industrial",
  "4_1_office": "Oficinas",
  "4_2_retail": "Comercial",
  "4_3_publicServices": "Servicios publicos",
};

const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
const num = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** Rustic references: delegation + municipality (5 digits), a letter, polygon (3) and parcel (5). */
const RUSTIC = /^\d{5}[A-Z]\d{8}/;

function place(municipality: string) {
  const found = municipalityByCatastroCode(municipality);
  const province = found ? provinceByCode(found.provinceCode) : null;
  return {
    municipality: found?.name ?? null,
    province: province?.name ?? null,
    provinceCode: found?.provinceCode ?? null,
    municipalityCode: found?.ine ?? null,
  };
}

function located(record: CadastreRecord | undefined) {
  const lat = num(record?.data.lat);
  const lon = num(record?.data.lon);
  return lat !== null && lon !== null ? { latitude: lat, longitude: lon } : null;
}

/** `CL ALCALA 12 Es:1 Pl:00 Pt:01 28009 MADRID (MADRID)`, the live register's way. */
function addressLine(parts: (string | number | null | undefined)[]): string | null {
  const present = parts.filter((p) => p !== null && p !== undefined && String(p).trim() !== "").map(String);
  return present.length ? present.join(" ") : null;
}

export function factsFromIndex(reference: string, found: CadastreParcelFacts): CadastreIndexHit | null {
  const first = (kind: string) => found.byKind[kind]?.[0];
  const building = first("building");
  const parcelRecord = first("parcel");
  const catParcel = first("cat_parcel");
  const address = found.byKind.address?.find((a) => a.data.specification === "Entrance") ?? first("address");
  const units = found.byKind.unit ?? [];
  const unit = reference.length === 20 ? units.find((u) => u.unit === reference) : undefined;
  if (reference.length === 20 ? !unit : !building && !units.length) return null;

  const municipality = (unit ?? building ?? catParcel ?? parcelRecord)!.copy.municipality;
  const where = place(municipality);
  const streetType = text(catParcel?.data.street_type);
  const streetName = text(catParcel?.data.street_name);
  const number = catParcel ? num(catParcel.data.number) : null;
  const street =
    streetType && streetName
      ? { type: streetType, name: streetName, number: number === null ? "" : String(number) }
      : null;
  const postalCode =
    text(unit?.data.postal_code) ?? text(address?.data.postal_code) ?? text(catParcel?.data.postal_code);
  const streetText = street ? `${street.type} ${street.name}` : text(address?.data.street);
  const houseNumber = street?.number || text(address?.data.number);
  const placeText = [where.municipality?.toUpperCase(), where.province ? `(${where.province.toUpperCase()})` : null];
  const location = located(parcelRecord) ?? located(building) ?? located(catParcel);
  const plotAreaM2 = num(parcelRecord?.data.area_m2) ?? num(catParcel?.data.land_area_m2);
  // The copy that gave the reference's own facts first: the unit's (CAT), or the building's (INSPIRE).
  const answeredBy = (unit ? [unit, building ?? parcelRecord] : [building ?? parcelRecord, units[0]])
    .filter((r): r is CadastreRecord => r !== undefined)
    .map((r) => r.copy)
    .filter((copy, i, all) => all.findIndex((c) => c.source === copy.source) === i);
  const common = {
    kind: RUSTIC.test(reference) ? ("rustic" as const) : ("urban" as const),
    ...where,
    plotAreaM2,
    postalCode,
    location,
    street,
  };
  let facts: CadastreFacts;
  if (unit) {
    const staircase = text(unit.data.staircase);
    const floor = text(unit.data.floor);
    const door = text(unit.data.door);
    facts = {
      reference,
      ...common,
      kind: unit.data.property_class === "RU" ? "rustic" : unit.data.property_class === "UR" ? "urban" : common.kind,
      address: addressLine([
        streetText,
        houseNumber,
        staircase && `Es:${staircase}`,
        floor && `Pl:${floor}`,
        door && `Pt:${door}`,
        postalCode,
        ...placeText,
      ]),
      use: CAT_USES[text(unit.data.use_key) ?? ""] ?? null,
      surfaceM2: num(unit.data.built_area_m2),
      yearBuilt: num(unit.data.year_built),
      unit: staircase || floor || door ? { staircase, floor, door } : null,
    };
  } else {
    // The parcel as the building: the oldest year, the use with the largest built area, the summed area.
    const years = units.map((u) => num(u.data.year_built)).filter((y): y is number => y !== null && y > 0);
    const uses = new Map<string, number>();
    for (const u of units) {
      const use = CAT_USES[text(u.data.use_key) ?? ""];
      if (use) uses.set(use, (uses.get(use) ?? 0) + (num(u.data.built_area_m2) ?? 0));
    }
    const areas = units.map((u) => num(u.data.built_area_m2)).filter((a): a is number => a !== null);
    facts = {
      reference,
      ...common,
      address: addressLine([streetText, houseNumber, postalCode, ...placeText]),
      use:
        [...uses.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ??
        INSPIRE_USES[text(building?.data.current_use) ?? ""] ??
        null,
      surfaceM2: areas.length ? areas.reduce((a, b) => a + b, 0) : num(building?.data.gross_floor_area_m2),
      // INSPIRE gives a beginning and an end of construction; what a range means is not documented in
      // what was found (format.md), so only a single year is taken.
      yearBuilt: years.length
        ? Math.min(...years)
        : building?.data.built_from === building?.data.built_to
          ? num(building?.data.built_from)
          : null,
      units: units.length || num(building?.data.units) || 1,
      unit: null,
    };
  }
  return { facts, answeredBy };
}
