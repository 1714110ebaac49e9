// Finding a file's header row as its rows are read, the same for CSV and workbooks: the first row,
// among the first HEADER_ROWS, that names the reference column (an accepted name, or the one the
// partner chose); the rows above it (titles) are skipped. A preview of a file where no row does
// guesses the header, so the partner can pick the columns from it.
import { HEADER_ROWS, likelyHeader } from "@/lib/spreadsheets/header";
import {
  columnsOf,
  invalidRequest,
  noExternalIdColumn,
  noReferenceColumn,
  twiceNamed,
  type ColumnChoice,
  type Columns,
} from "./items";

/** What the reading keeps of the rows after the header. */
export interface Wanted {
  /** The first so many data rows, whole (a preview shows them). */
  whole: number;
  /** Whether the later rows' reference and external id are wanted (a preview only counts them). */
  fields: boolean;
  /** When no row is recognised: guess the header (a preview) instead of refusing the file. */
  guess: boolean;
}

export interface Found {
  header: string[];
  /** The header's line (CSV) or row number (workbook). */
  line: number;
  /** Null when the header was guessed. */
  columns: Columns | null;
  /** The fields kept of rows past `whole`: the reference and the external id (-1: none, read as ""). */
  keep: number[];
  /** Rows after those in `rest` still to keep whole. */
  whole: number;
  /** Rows after the header read while looking for it (only when guessed), as wanted. */
  rest: string[][];
}

export class HeaderFinder {
  private readonly seen: { values: string[]; line: number }[] = [];
  found: Found | null = null;

  constructor(
    private readonly choice: ColumnChoice,
    private readonly wanted: Wanted,
  ) {}

  /**
   * The next row, until the header is found: what was found when this row ends the search (it is
   * the header, or the HEADER_ROWS-th row of a preview that guesses), else null. A file whose first
   * HEADER_ROWS rows name no reference column is refused.
   */
  offer(values: string[], line: number): Found | null {
    const columns = columnsOf(values, this.choice);
    if (columns) {
      if (this.choice.externalId && columns.externalId === null)
        throw noExternalIdColumn(values, line, this.choice.externalId);
      const twice = twiceNamed(values, line, this.choice);
      if (twice) throw twice;
      return this.settle(values, line, columns, []);
    }
    this.seen.push({ values, line });
    return this.seen.length >= HEADER_ROWS ? this.end() : null;
  }

  /** The rows ended (the file, or the HEADER_ROWS looked at) without a header: guessed, or refused. */
  end(): Found {
    if (!this.seen.length) throw invalidRequest("The file is empty.", [{ line: 1, detail: "no header row" }]);
    if (!this.wanted.guess) throw noReferenceColumn(this.seen, this.choice);
    const at = Math.max(0, likelyHeader(this.seen.map((r) => r.values)));
    const { values, line } = this.seen[at]!;
    return this.settle(
      values,
      line,
      null,
      this.seen.slice(at + 1).map((r) => r.values),
    );
  }

  private settle(header: string[], line: number, columns: Columns | null, after: string[][]): Found {
    const { whole, fields } = this.wanted;
    const keep = fields && columns ? [columns.reference, columns.externalId ?? -1] : [];
    const rest = after.map((row, i) => (i < whole ? row : keep.map((k) => row[k] ?? "")));
    this.found = { header, line, columns, keep, whole: Math.max(0, whole - after.length), rest };
    return this.found;
  }
}
