// What every dataset reader yields, and the one error they throw: file, line and column named.
import type { CsvError } from "csv-parse";
import type { Row } from "./datasets";

export class RegisterFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: string | number | null,
    detail: string,
  ) {
    super(`${file}: line ${line}${column === null ? "" : `, column ${typeof column === "number" ? column : `"${column}"`}`}: ${detail}`);
  }
}

export interface ParsedRow {
  /** The line (CSV, XML) or sheet row (XLSX) the source row ends on or starts at. */
  line: number;
  row: Row;
}

/** csv-parse's error as the file's: its line, and its column name or else its 1-based field number. */
export function csvFileError(file: string, error: CsvError & { lines?: number; column?: string | number; index?: number }): RegisterFileError {
  const column = typeof error.column === "string" || typeof error.column === "number" ? error.column : typeof error.index === "number" ? error.index + 1 : null;
  return new RegisterFileError(file, error.lines ?? 0, column, error.message);
}
