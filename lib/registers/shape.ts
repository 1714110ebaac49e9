// What every reader of a dataset file yields (./read.ts dispatches to them): the file's shape first,
// then its rows by field name, or a line that could not be split.
import type { Row } from "./datasets";
import type { HeaderMatch } from "./columns";
import type { TextEncoding } from "./decode";

export interface FileShape {
  format: "CSV" | "XLSX" | "XML" | "positional CSV";
  delimiter: string | null;
  sheet: string | null;
  /** XML: the element each record is. */
  element: string | null;
  /** Line (sheet row) of the header; XML: the first record's line. */
  headerLine: number;
  /** The names the file gives its columns (XML: the first record's element paths). */
  header: readonly string[];
  match: HeaderMatch;
  /** Text files: the encoding decided from the bytes so far (final once every row is read). */
  encoding: (() => { encoding: TextEncoding; switchedAtLine: number | null }) | null;
}

/**
 * A row by field name, or a record that could not be split (malformed), from `line` over `lines`
 * lines (1 unless a quoted field holds line breaks; readers of sheets and elements give none); or
 * a blank line (text files), so that what a reading counts adds up to the file's lines.
 */
export type ParsedRow =
  | { line: number; lines?: number; row: Row }
  | { line: number; lines?: number; malformed: true }
  | { line: number; blank: true };

/** What a reader yields: the shape first, then rows. */
export type ReadItem = { shape: FileShape } | ParsedRow;
