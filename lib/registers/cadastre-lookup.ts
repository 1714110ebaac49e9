// Looking a reference up in the cadastre index: every record of its parcel in the live copies (one
// query, served by cadastre_records_parcel), grouped by kind, with the copy each came from so the
// answer can say which source answered and as of when.
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "@/lib/db";
import type { CadastreSource } from "@/lib/domain";
import { COPY_SOURCES } from "./regions";
import { isStale } from "./status";

const { cadastreCopies: copies, cadastreRecords: records } = schema;

export interface CadastreCopyRef {
  source: CadastreSource;
  municipality: string;
  asOf: string | null;
}

export interface CadastreRecord {
  kind: string;
  unit: string | null;
  data: Record<string, unknown>;
  copy: CadastreCopyRef;
}

export interface CadastreParcelFacts {
  parcel: string;
  /** Records by kind: parcel, building, building_part, address; cat_parcel, construction_unit, construction, unit. */
  byKind: Record<string, CadastreRecord[]>;
}

export function cadastreIndex(db: Db) {
  return {
    /** Everything the live copies hold about a parcel (a 14-character reference, or a unit's first 14), or null. */
    async parcel(reference: string): Promise<CadastreParcelFacts | null> {
      const parcel = reference.slice(0, 14);
      const rows = await db
        .select({
          kind: records.kind,
          unit: records.unit,
          data: records.data,
          source: records.source,
          municipality: records.municipality,
          asOf: copies.asOf,
        })
        .from(records)
        .innerJoin(
          copies,
          and(
            eq(copies.source, records.source),
            eq(copies.municipality, records.municipality),
            eq(copies.generation, records.generation),
          ),
        )
        .where(eq(records.parcel, parcel))
        .orderBy(records.kind, records.sourceLine);
      if (!rows.length) return null;
      const byKind: Record<string, CadastreRecord[]> = {};
      for (const row of rows)
        (byKind[row.kind] ??= []).push({
          kind: row.kind,
          unit: row.unit,
          data: row.data,
          copy: { source: row.source, municipality: row.municipality, asOf: row.asOf },
        });
      return { parcel, byKind };
    },
    /**
     * The municipalities' copies, by source, with their dates and counts (for operators); `stale` when
     * the publisher's date is more than `staleDays` old, and the evidence their source's format rests
     * on, by the datasets' own rules (./status.ts).
     */
    async copies(staleDays: number) {
      const rows = await db
        .select({
          source: copies.source,
          municipality: copies.municipality,
          generation: copies.generation,
          counts: copies.counts,
          skips: copies.skips,
          asOf: copies.asOf,
          asOfFrom: copies.asOfFrom,
          importedAt: copies.importedAt,
          lastError: copies.lastError,
        })
        .from(copies)
        .orderBy(copies.source, copies.municipality);
      return rows.map((row) => ({
        ...row,
        evidence: COPY_SOURCES.find((s) => s.id === row.source)!.evidence,
        stale: isStale(row.asOf, staleDays),
      }));
    },
  };
}
