// One interface for every dataset of the register index: what the file must look like, and how one
// of its rows becomes index records (or is skipped, with the reason counted).
import type { RegisterRecordKind } from "@/lib/domain";

/** A parsed row, by the file's own header names. */
export type Row = Record<string, string | undefined>;

export interface RecordDraft {
  kind: RegisterRecordKind;
  /** Null for a record a city files by street address only (then `addressKey`, lib/addresses). */
  parcel: string | null;
  unit: string | null;
  addressKey?: string | null;
  datedOn: string | null;
  data: Record<string, unknown>;
}

export type RowResult = { records: RecordDraft[] } | { skipped: "reference" | "rating" | "address" | "result" };

export interface Dataset {
  /** Key used by the CLI, the configuration and `index:<id>` providers. */
  id: string;
  title: string;
  /** The autonomous community it covers, as lib/reference-data names it. */
  ccaa: string;
  /** The part of the community it covers, when not all of it (a city's register). */
  area?: string;
  /** The registry label certificates carry (`registry` of the Property's certificate). */
  registry: string;
  kinds: readonly RegisterRecordKind[];
  /** Where the publisher offers the file (documentation; refreshes use the configured URLs). */
  url: string | null;
  /** Where the expected format comes from, and whether a real file was ever read. */
  evidence: string;
  /** Header names every file must have; other known columns are read when present. */
  required: readonly string[];
  /** Text encoding when the publisher is known to use one; otherwise detected from the header. */
  encoding?: "utf8" | "latin1";
  /**
   * Files are XML, one record per element of this name (namespace prefixes ignored); column names
   * are then element paths inside it ("IdentificacionEdificio/ReferenciaCatastral"). Without it a
   * file is CSV, or an XLSX workbook (recognised by its bytes: publishers and operators use both).
   */
  xmlRecord?: string;
  /**
   * Files are comma-separated lines that quote nothing while some fields hold commas: fields are
   * then named by position from both ends, what lies between is `middle` (commas kept), after
   * removing the text `drop` matches. The first line is a header and only skipped.
   */
  positional?: { head: readonly string[]; middle: string; tail: readonly string[]; drop?: RegExp };
  read(row: Row): RowResult;
}
