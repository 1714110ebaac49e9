// The register index as the enrichment sources see it (RegisterIndex): the live generation of each
// dataset only, and the cadastre's bulk copies (./cadastre-facts.ts). A unit's own certificate comes before the building's; the newest first. A building's
// inspection is found by parcel, else by the street address a city files it under.
import { and, desc, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import { schema, type Db } from "@/lib/db";
import type { z } from "zod";
import { IteFinding, RegistryCertificate, type IndexHit, type RegisterIndex } from "@/lib/enrichment/sources/types";
import type { RegisterRecordKind } from "@/lib/domain";
import { factsFromIndex } from "./cadastre-facts";
import { cadastreIndex } from "./cadastre-lookup";
import { provenanceOf } from "./register";
import { datasetById, datasetRegister } from "./regions";

const { registerDatasets: datasets, registerRecords: records } = schema;

/**
 * The newest record matching `where`; `before` ranks a kind of match ahead of the rest (false
 * first). Its jsonb is checked against what the kind holds: a record no import could have written
 * fails the lookup, saying which, rather than reaching the engine as something it is not.
 */
async function newest<T>(
  db: Db,
  kind: RegisterRecordKind,
  holds: z.ZodType<T>,
  where: SQL | undefined,
  before?: SQL,
): Promise<IndexHit<T> | null> {
  const [hit] = await db
    .select({
      data: records.data,
      dataset: records.dataset,
      sourceRow: records.sourceRow,
      asOf: datasets.asOf,
      importedAt: datasets.importedAt,
    })
    .from(records)
    .innerJoin(datasets, and(eq(datasets.id, records.dataset), eq(datasets.generation, records.generation)))
    .where(and(eq(records.kind, kind), where))
    .orderBy(
      ...(before ? [before] : []),
      sql`${records.unit} is null`,
      sql`${records.datedOn} desc nulls last`,
      desc(records.id),
    )
    .limit(1);
  if (!hit) return null;
  const data = holds.safeParse(hit.data);
  if (!data.success)
    throw new Error(`register record ${hit.dataset} row ${hit.sourceRow} is not a ${kind}: ${data.error.message}`);
  const dataset = datasetById(hit.dataset);
  return {
    data: data.data,
    dataset: hit.dataset,
    sourceRow: hit.sourceRow,
    asOf: hit.asOf,
    retrievedAt: hit.importedAt?.toISOString() ?? null,
    ...(dataset ? provenanceOf(datasetRegister(dataset)) : { licence: null, attribution: null }),
  };
}

export function registerIndex(db: Db): RegisterIndex {
  const cadastre = cadastreIndex(db);
  return {
    async cadastre(reference) {
      const found = await cadastre.parcel(reference);
      return found ? factsFromIndex(reference, found) : null;
    },
    certificate: ({ parcel, unit }) =>
      newest(
        db,
        "certificate",
        RegistryCertificate,
        and(eq(records.parcel, parcel), unit ? or(eq(records.unit, unit), isNull(records.unit)) : isNull(records.unit)),
      ),
    inspection({ parcel, addressKey }) {
      // One round trip: the parcel's own record ahead of one filed under the building's address.
      const byParcel = and(eq(records.parcel, parcel), isNull(records.unit));
      return newest(
        db,
        "inspection",
        IteFinding,
        addressKey ? or(byParcel, eq(records.addressKey, addressKey)) : byParcel,
        sql`${records.parcel} is distinct from ${parcel}`,
      );
    },
  };
}
