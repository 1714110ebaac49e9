// One interface for every dataset of the register index: what the file must look like, and how one
// of its rows becomes index records (or is skipped, with the reason counted).
import type { FormatEvidenceLevel, RegisterRecordKind } from "@/lib/domain";
import type { ValueProblem } from "@/lib/enrichment/sources/registries/fields";

/** A parsed row, by the dataset's field names (`reference`, `rating`…), whatever the file calls them. */
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

/** Why a whole row is left out (a value that cannot be read is left out alone: ValueProblem). */
export type RowSkip = "reference" | "rating" | "address" | "result";

export type RowResult = { records: RecordDraft[] } | { skipped: RowSkip; field: string };

/** Where a format comes from: its level and the citations (repository and file, or document). */
export interface FormatEvidence {
  level: FormatEvidenceLevel;
  citations: readonly string[];
}

export interface Dataset {
  /** Key used by the CLI, the configuration and `index:<id>` providers. */
  id: string;
  title: string;
  /** The part of its community it covers, when not all of it (a city's register). */
  area?: string;
  /** The registry label its certificates carry (`registry` of the Property's certificate). */
  registry: string;
  kinds: readonly RegisterRecordKind[];
  /**
   * `codes`: its inspection records are report codes on certificates, not an inspection register
   * (coverage does not count them as an ITE source: a parcel without one is `unsupported`).
   */
  inspections?: "codes";
  /** Where the publisher offers the files (documentation; refreshes use the configured URLs). */
  url: string | null;
  /** What the publisher offers, and what an operator does to it before importing. */
  download: string;
  /** The snapshot date the publisher states for a file that is no longer updated (its as_of). */
  snapshotOn?: string;
  evidence: FormatEvidence;
  /**
   * Field → the names a file gives it, the documented one first. Element paths for XML; for
   * positional files, the names given by position.
   */
  columns: Readonly<Record<string, readonly string[]>>;
  /** The sets of fields a file must have, any one of them complete (most datasets have one). */
  layouts: readonly (readonly string[])[];
  /** Header names compared without regard to case (the evidence itself reads them so). */
  caseInsensitive?: boolean;
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
  /** One row's records; a value that cannot be read is told to `unreadable` and left out. */
  read(row: Row, unreadable: (field: string, problem: ValueProblem) => void): RowResult;
}
