// Importing a municipality's CAT file into the cadastre index. The copy's date is the file's own
// (its header record, 01); the trailer (90) must be there and its counts must match the file's
// records, or the import is refused: a file cut short would otherwise replace a whole copy with part
// of one. Coordinates of the parcel record are reprojected to WGS 84 like the INSPIRE files'.
import type { Db } from "@/lib/db";
import { type CadastreItem, type CopyResult, importCopy } from "../cadastre-copies";
import type { ImportFile } from "../import";
import { toWgs84 } from "../catastro-inspire/project";
import { type CatHeader, type CatLine, type CatRecord, readCatFile, READ_TYPES } from "./read-cat";

const KINDS = { 11: "cat_parcel", 13: "construction_unit", 14: "construction", 15: "unit" } as const;

/** The record's facts as the index keeps them (snake case, as the register records' data is). */
function dataOf(record: CatRecord): Record<string, unknown> {
  switch (record.type) {
    case 11: {
      const at =
        record.x !== null && record.y !== null && record.epsg ? toWgs84(record.epsg, record.x, record.y) : null;
      return {
        province_ine: record.provinceIne,
        municipality_ine: record.municipalityIne,
        municipality_name: record.municipalityName,
        street_type: record.streetType,
        street_name: record.streetName,
        number: record.number,
        postal_code: record.postalCode,
        land_area_m2: record.landAreaM2,
        built_area_m2: record.builtAreaM2,
        built_above_ground_m2: record.builtAboveGroundM2,
        built_below_ground_m2: record.builtBelowGroundM2,
        lon: at?.lon ?? null,
        lat: at?.lat ?? null,
      };
    }
    case 13:
      return {
        unit_code: record.unitCode,
        year_built: record.yearBuilt,
        year_accuracy: record.yearAccuracy,
        ground_area_m2: record.groundAreaM2,
      };
    case 14:
      return {
        order: record.order,
        staircase: record.staircase,
        floor: record.floor,
        door: record.door,
        use_code: record.useCode,
        reform_kind: record.reformKind,
        reform_year: record.reformYear,
        effective_year: record.effectiveYear,
        area_m2: record.areaM2,
      };
    case 15:
      return {
        property_class: record.propertyClass,
        province_ine: record.provinceIne,
        municipality_ine: record.municipalityIne,
        postal_code: record.postalCode,
        staircase: record.staircase,
        floor: record.floor,
        door: record.door,
        year_built: record.yearBuilt,
        use_key: record.useKey,
        built_area_m2: record.builtAreaM2,
        participation: record.participation,
      };
  }
}

/** The municipality of a CAT file: that of its first record (its delegation and DGC municipality). */
export async function catMunicipality(file: ImportFile): Promise<string> {
  const { stream } = await file.open();
  try {
    for await (const line of readCatFile(stream)) if (line.kind === "record") return line.record.municipality;
  } finally {
    stream.destroy();
  }
  throw new Error(`${file.name}: no parcel, construction or property record: is this a CAT file?`);
}

/** Imports one municipality's CAT files (usually one) as that municipality's catastro-cat copy. */
export async function importCat(db: Db, municipality: string, files: readonly ImportFile[]): Promise<CopyResult> {
  let header: CatHeader | null = null;
  async function* read(file: ImportFile): AsyncGenerator<CadastreItem> {
    const { stream } = await file.open();
    const seen: Record<number, number> = {};
    let trailer: Extract<CatLine, { kind: "trailer" }> | null = null;
    for await (const line of readCatFile(stream)) {
      if (line.kind === "header") header ??= line.header;
      else if (line.kind === "trailer") trailer = line;
      else if (line.kind === "other")
        yield { skip: `record_${String(line.type).padStart(2, "0")}_not_read`, line: line.line };
      else if (line.kind === "skip") yield { skip: line.reason, line: line.line };
      else if (line.record.municipality !== municipality)
        throw new Error(
          `${file.name} line ${line.line}: a record of municipality ${line.record.municipality} in a file of ${municipality}`,
        );
      else {
        const { record } = line;
        yield {
          record: {
            kind: KINDS[record.type],
            parcel: record.parcel,
            unit: record.type === 15 ? record.reference : null,
            line: line.line,
            data: dataOf(record),
          },
        };
      }
      // Every line of a read type counts against the trailer, whether it was kept or left out.
      if (line.kind === "record") seen[line.record.type] = (seen[line.record.type] ?? 0) + 1;
      else if (line.kind === "skip" && line.type !== null) seen[line.type] = (seen[line.type] ?? 0) + 1;
    }
    if (!trailer) throw new Error(`${file.name}: no trailer record (90) at the end: the file may be cut short`);
    for (const type of READ_TYPES) {
      const expected = trailer.counts[type];
      if (expected !== null && expected !== undefined && expected !== (seen[type] ?? 0))
        throw new Error(
          `${file.name}: the trailer counts ${expected} records of type ${type}, the file holds ${seen[type] ?? 0}`,
        );
    }
  }
  return importCopy(db, {
    source: "catastro-cat",
    municipality,
    files,
    read,
    asOf: () =>
      header?.generatedOn
        ? { asOf: header.generatedOn, from: "the file's header record (01): its generation date" }
        : { asOf: null, from: "not given: the file has no header record with a date" },
  });
}
