// What every dataset reader yields, and the one error they throw: file, line and column named.
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
