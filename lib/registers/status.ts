// What the index holds per dataset: rows, as_of, last import and last error (CLI, admin, coverage),
// with the community the region table gives it and the evidence its format rests on.
import { schema, type Db } from "@/lib/db";
import { madridDay, type RegisterRecordKind } from "@/lib/domain";
import type { CommunityName } from "@/lib/reference-data";
import type { FormatEvidence } from "./datasets";
import type { AsOfBasis } from "./import";
import type { Licence } from "./register";
import { DATASETS, datasetRegion, datasetRegister } from "./regions";
import type { Skips } from "./skips";

export interface DatasetStatus {
  id: string;
  title: string;
  ccaa: CommunityName;
  /** The part of the community it covers, when not all of it. */
  area: string | null;
  /** What the publisher offers, and what an operator does to it before importing. */
  download: string;
  /** Where the expected format comes from (no format was ever checked against a real download here). */
  evidence: FormatEvidence;
  kinds: readonly RegisterRecordKind[];
  /** `codes`: its inspection records are report codes on certificates, not an inspection register. */
  inspections: "codes" | null;
  /** Records in the live copy (0 before the first import). */
  rows: number;
  /** Source rows left out of the live copy. */
  skipped: number;
  /** Rows and values left out, by reason, with the first few positions. */
  skips: Skips;
  /** The publisher's snapshot date: its metadata's, else the newest record's (never the download day). */
  asOf: string | null;
  asOfBasis: AsOfBasis | null;
  publishedOn: string | null;
  latestRecordOn: string | null;
  /** as_of is older than REGISTER_STALE_DAYS (null: nothing imported, or no date known). */
  stale: boolean | null;
  /** The terms of the publisher's data and the notice they require (its register module's). */
  licence: Licence;
  source: string | null;
  importedAt: Date | null;
  lastAttemptAt: Date | null;
  lastError: string | null;
}

/** Whether a copy as of `asOf` is older than `staleDays` on `now`'s date; null when its date is unknown. */
export function isStale(asOf: string | null, staleDays: number, now = new Date()): boolean | null {
  if (!asOf) return null;
  return Date.parse(`${asOf}T00:00:00Z`) < Date.parse(`${madridDay(now)}T00:00:00Z`) - staleDays * 86_400_000;
}

export async function listDatasets(db: Db, staleDays: number, now = new Date()): Promise<DatasetStatus[]> {
  const stored = new Map((await db.select().from(schema.registerDatasets)).map((row) => [row.id, row]));
  return DATASETS.map((d) => {
    const row = stored.get(d.id);
    const live = row && row.generation > 0;
    return {
      id: d.id,
      title: d.title,
      ccaa: datasetRegion(d).name,
      area: d.area ?? null,
      download: d.download,
      evidence: d.evidence,
      kinds: d.kinds,
      inspections: d.inspections ?? null,
      rows: live ? row.rows : 0,
      skipped: live ? row.skipped : 0,
      skips: live ? row.skips : {},
      asOf: live ? row.asOf : null,
      asOfBasis: live ? row.asOfBasis : null,
      publishedOn: live ? row.publishedOn : null,
      latestRecordOn: live ? row.latestRecordOn : null,
      stale: live ? isStale(row.asOf, staleDays, now) : null,
      licence: datasetRegister(d).licence,
      source: live ? row.source : null,
      importedAt: live ? row.importedAt : null,
      lastAttemptAt: row?.lastAttemptAt ?? null,
      lastError: row?.lastError ?? null,
    };
  });
}
