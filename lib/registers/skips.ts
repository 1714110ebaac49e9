// What an import leaves out, counted by reason, with where the first few sit (file, line, column):
// never the values themselves, which may be anything a register wrote.
import type { ValueProblem } from "@/lib/enrichment/sources/registries/fields";
import type { RowSkip } from "./datasets";

/** A row left out (RowSkip, or a line the parser could not split), or a value left out (ValueProblem). */
export type SkipReason = RowSkip | ValueProblem | "line";

export const SKIP_REASONS: Readonly<Record<SkipReason, string>> = {
  reference: "rows without a usable cadastral reference",
  rating: "rows without an A-G rating",
  address: "rows without a street address with a number",
  result: "rows without an inspection result",
  line: "records that cannot be split into the header's fields (a quote never closed, a field count not the header's)",
  date: "dates that are no calendar date (left out of their row)",
  number: "figures that are no number (left out of their row)",
  letter: "letters other than A-G (left out of their row)",
};

export interface SkipPosition {
  file: string;
  line: number;
  /** The column as the file names it; null for a line that could not be split. */
  column: string | null;
}

export interface SkipCount {
  count: number;
  /** The first few, in file order. */
  first: SkipPosition[];
}

export type Skips = Partial<Record<SkipReason, SkipCount>>;

/** How many positions each reason keeps. */
export const FIRST_POSITIONS = 5;

export function tally<R extends string>(skips: Partial<Record<R, SkipCount>>, reason: R, position: SkipPosition): void {
  const count = (skips[reason] ??= { count: 0, first: [] });
  count.count++;
  if (count.first.length < FIRST_POSITIONS) count.first.push(position);
}

const where = (p: SkipPosition) => `${p.file} line ${p.line}${p.column === null ? "" : ` column "${p.column}"`}`;

const isSkipReason = (reason: string): reason is SkipReason => Object.hasOwn(SKIP_REASONS, reason);

/** One line per reason, in SKIP_REASONS order: `dates that are no calendar date…: 2 (a.csv line 8 column "x")`. */
export function describeSkips(skips: Skips): string[] {
  return Object.keys(SKIP_REASONS)
    .filter(isSkipReason)
    .flatMap((reason) => {
      const tallied = skips[reason];
      if (!tallied) return [];
      const more = tallied.count > tallied.first.length ? "; …" : "";
      return [`${SKIP_REASONS[reason]}: ${tallied.count} (${tallied.first.map(where).join("; ")}${more})`];
    });
}

/**
 * Where a file's lines went. For a text file they add up to its lines: the header (and any lines
 * above it), the lines of rows read (kept, or left out by reason), of records that could not be
 * split, and blank lines. Sheets count rows alike; XML files count records, not lines.
 */
export interface LineCounts {
  header: number;
  rows: number;
  malformed: number;
  blank: number;
}

/** `11 lines: 1 header, 8 in rows, 1 in malformed records, 1 blank`. */
export function describeLines(lines: LineCounts): string {
  const total = lines.header + lines.rows + lines.malformed + lines.blank;
  return `${total} lines: ${lines.header} header, ${lines.rows} in rows, ${lines.malformed} in malformed records, ${lines.blank} blank`;
}
