// Importing a municipality's INSPIRE files (CP parcels, BU buildings and parts, AD addresses: any of
// them, in any order) into the cadastre index as one copy. Addresses name their street and postal
// code by links to features defined later in the same file: those are kept aside while the file
// streams (a municipality has at most some thousands) and written into the addresses at the end.
// The copy's date is the latest date its features give (`beginLifespanVersion`): the ATOM files carry
// no date of their own, and the download day is never taken for the publisher's.
import { and, eq, sql } from "drizzle-orm";
import { schema, type Db } from "@/lib/db";
import { type CadastreItem, type CopyResult, importCopy } from "../cadastre-copies";
import { decodeText } from "../decode";
import type { ImportFile } from "../import";
import { gmlFiles } from "./download";
import { type InspireFeature, readInspireGml } from "./read-gml";

const { cadastreRecords: records } = schema;

/** The municipality code in an ATOM file's name (`A.ES.SDGC.BU.42900.building.gml`, `…CP.28900.zip`). */
export function inspireMunicipality(name: string): string | null {
  return /ES\.SDGC\.(?:CP|BU|AD)\.(\d{5})\b/.exec(name)?.[1] ?? null;
}

function dataOf(feature: InspireFeature): Record<string, unknown> | null {
  switch (feature.kind) {
    case "parcel":
      return { area_m2: feature.areaM2, since: feature.since, ...feature.centroid };
    case "building":
      return {
        condition: feature.condition,
        built_from: feature.builtFrom,
        built_to: feature.builtTo,
        current_use: feature.currentUse,
        units: feature.units,
        dwellings: feature.dwellings,
        floors_above_ground: feature.floorsAboveGround,
        gross_floor_area_m2: feature.grossFloorAreaM2,
        since: feature.since,
        ...feature.centroid,
      };
    case "building_part":
      return {
        part: feature.part,
        floors_above_ground: feature.floorsAboveGround,
        floors_below_ground: feature.floorsBelowGround,
      };
    case "address":
      return {
        number: feature.number === "S-N" ? null : feature.number,
        specification: feature.specification,
        thoroughfare: feature.thoroughfare,
        postal_descriptor: feature.postalDescriptor,
        ...feature.position,
      };
    default:
      return null;
  }
}

export async function importInspire(db: Db, municipality: string, files: readonly ImportFile[]): Promise<CopyResult> {
  const streets: Record<string, string> = {};
  const postCodes: Record<string, string> = {};
  let latest: string | null = null;
  async function* read(file: ImportFile): AsyncGenerator<CadastreItem> {
    const named = inspireMunicipality(file.name);
    if (named && named !== municipality)
      throw new Error(`${file.name} is a file of municipality ${named}, not of ${municipality}`);
    const { stream } = await file.open();
    for await (const gml of gmlFiles(file.name, stream))
      for await (const feature of readInspireGml(gml.name, decodeText(gml.stream))) {
        if (feature.kind === "thoroughfare") streets[feature.id] = feature.name;
        else if (feature.kind === "postal_descriptor") postCodes[feature.id] = feature.postCode;
        else {
          if ("since" in feature && feature.since && (!latest || feature.since > latest)) latest = feature.since;
          yield {
            record: {
              kind: feature.kind,
              parcel: feature.parcel,
              unit: null,
              line: feature.line,
              data: dataOf(feature)!,
            },
          };
        }
      }
  }
  return importCopy(db, {
    source: "catastro-inspire",
    municipality,
    files,
    read,
    asOf: () =>
      latest
        ? { asOf: latest, from: "the latest date of the files' features (beginLifespanVersion)" }
        : { asOf: null, from: "not given: no feature carries a date" },
    // Each address gets its street's name and postal code from the links it holds.
    finish: async (db, generation) => {
      await db.execute(sql`
        update ${records} set ${sql.identifier(records.data.name)} = ${records.data} || jsonb_strip_nulls(jsonb_build_object(
          'street', ${JSON.stringify(streets)}::jsonb ->> (${records.data} ->> 'thoroughfare'),
          'postal_code', ${JSON.stringify(postCodes)}::jsonb ->> (${records.data} ->> 'postal_descriptor')))
        where ${and(
          eq(records.source, "catastro-inspire"),
          eq(records.municipality, municipality),
          eq(records.generation, generation),
          eq(records.kind, "address"),
        )}`);
    },
  });
}
