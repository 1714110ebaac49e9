// Where a table's header row is, the same for CSV and workbooks: title lines above a table are
// common in what spreadsheets export (a report's name, a date), so the header is looked for among
// the first rows rather than taken as the first.

/** How far down a file the header row may sit (rows as read: empty lines are not rows). */
export const HEADER_ROWS = 20;

/** Header names as written in the wild: case, accents, spaces and hyphens do not matter. */
export const headerKey = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");

/** Where the column named `name` (as headerKey compares them) is in `row`, or -1. */
export const columnNamed = (row: readonly string[], name: string): number => {
  const key = headerKey(name);
  return key ? row.findIndex((cell) => headerKey(cell) === key) : -1;
};

/**
 * Of rows none of which was recognised as the header, the one most likely to be it: the first with
 * the most filled cells (a title line above a table fills fewer). -1 when there are none.
 */
export function likelyHeader(rows: readonly (readonly string[])[]): number {
  let best = -1;
  let most = 0;
  rows.forEach((row, i) => {
    const filled = row.filter((cell) => cell.trim()).length;
    if (filled > most) [best, most] = [i, filled];
  });
  return best;
}
