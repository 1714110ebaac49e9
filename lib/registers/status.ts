// What the index holds per dataset: rows, as_of, last import and last error (CLI, admin, coverage).
import { schema, type Db } from "@/lib/db";
import type { RegisterRecordKind } from "@/lib/domain";
import { DATASETS } from "./datasets";

export interface DatasetStatus {
  id: string;
  title: string;
  ccaa: string;
  /** The part of the community it covers, when not all of it. */
  area: string | null;
  /** Where the expected format comes from, and whether a real file was ever read. */
  evidence: string;
  kinds: readonly RegisterRecordKind[];
  /** Records in the live copy (0 before the first import). */
  rows: number;
  skipped: number;
  asOf: string | null;
  source: string | null;
  importedAt: Date | null;
  lastAttemptAt: Date | null;
  lastError: string | null;
}

export async function listDatasets(db: Db): Promise<DatasetStatus[]> {
  const stored = new Map((await db.select().from(schema.registerDatasets)).map((row) => [row.id, row]));
  return DATASETS.map((d) => {
    const row = stored.get(d.id);
    const live = row && row.generation > 0;
    return {
      id: d.id,
      title: d.title,
      ccaa: d.ccaa,
      area: d.area ?? null,
      evidence: d.evidence,
      kinds: d.kinds,
      rows: live ? row.rows : 0,
      skipped: live ? row.skipped : 0,
      asOf: live ? row.asOf : null,
      source: live ? row.source : null,
      importedAt: live ? row.importedAt : null,
      lastAttemptAt: row?.lastAttemptAt ?? null,
      lastError: row?.lastError ?? null,
    };
  });
}
