// From what a partner sent (JSON items, or the rows of a CSV or spreadsheet) to the batch's items:
// the header's columns, the request-level checks (a 422 names what is wrong) and each row's status.
// A bad reference never fails the request: its item is `invalid`, with the reason.
import { checkReference, referenceProblem } from "@/lib/cadastral-reference";
import { DomainError, isOneOf, withoutControl, type BatchItemStatus, type FieldError } from "@/lib/domain";
import { columnNamed, HEADER_ROWS, headerKey, likelyHeader } from "@/lib/spreadsheets/header";

/** Longest `external_id` and `name` (the contract's). */
export const MAX_TEXT = 200;
/** Items a JSON body may hold (the contract's); CSV bodies are bounded by BATCH_MAX_ITEMS. */
export const MAX_JSON_ITEMS = 10_000;
/** An invalid reference is kept as sent, cut to this (it can be anything a file held). */
const MAX_KEPT_REFERENCE = 100;

export interface ItemInput {
  reference: string;
  externalId: string | null;
}

export interface BatchInput {
  name: string | null;
  items: ItemInput[];
}

/** An item as accepted: normalised when valid, its status and, when invalid, why. */
export interface AcceptedItem {
  line: number;
  reference: string;
  externalId: string | null;
  status: Extract<BatchItemStatus, "invalid" | "duplicate" | "pending">;
  error: string | null;
}

export const invalidRequest = (detail: string, errors: FieldError[]) =>
  new DomainError("validation_error", detail, errors);

/** Each item's status: invalid, a duplicate of an earlier line's reference, or pending. */
export function acceptItems(items: readonly ItemInput[]): AcceptedItem[] {
  const seen = new Set<string>();
  return items.map(({ reference, externalId }, i) => {
    const line = i + 1;
    const check = checkReference(reference);
    if (!check.ok) {
      const kept = withoutControl(reference.trim()).slice(0, MAX_KEPT_REFERENCE);
      const error = referenceProblem({ ...check, reference: withoutControl(check.reference).slice(0, 40) });
      return { line, reference: kept, externalId, status: "invalid", error };
    }
    const status = seen.has(check.reference) ? "duplicate" : "pending";
    seen.add(check.reference);
    return { line, reference: check.reference, externalId, status, error: null };
  });
}

/** The column names that hold the reference (the contract's), and the partner's own id. */
export const REFERENCE_HEADERS = ["cadastral_reference", "referencia_catastral", "refcat"] as const;
export const EXTERNAL_ID_HEADER = "external_id";

export interface Columns {
  reference: number;
  externalId: number | null;
}

/**
 * The partner's own names for the columns (the API's `reference_column` and `external_id_column`,
 * the portal's picker): null for the accepted names.
 */
export interface ColumnChoice {
  reference: string | null;
  externalId: string | null;
}

export const ACCEPTED_NAMES: ColumnChoice = { reference: null, externalId: null };

/** Whether a header cell names the reference column (the partner's name for it, else an accepted one). */
const namesReference = (cell: string, choice: ColumnChoice) =>
  choice.reference ? headerKey(cell) === headerKey(choice.reference) : isOneOf(REFERENCE_HEADERS, headerKey(cell));

/** Where the reference and external id are in a row; null when it is not the header (no reference column). */
export function columnsOf(row: readonly string[], choice: ColumnChoice = ACCEPTED_NAMES): Columns | null {
  const reference = choice.reference
    ? columnNamed(row, choice.reference)
    : row.findIndex((cell) => namesReference(cell, choice));
  if (reference < 0) return null;
  const externalId = columnNamed(row, choice.externalId ?? EXTERNAL_ID_HEADER);
  return { reference, externalId: externalId < 0 ? null : externalId };
}

const ACCEPTED_LIST = `${REFERENCE_HEADERS.join(", ")} (any case)`;
const quoted = (row: readonly string[]) => JSON.stringify(row.slice(0, 20).map((h) => h.slice(0, 60)));

/**
 * No row among the first HEADER_ROWS is the header: the rows read (with their lines) say which
 * looks like it. The same words for CSV and workbooks, in the API, the portal and the CLI.
 */
export function noReferenceColumn(rows: readonly { values: readonly string[]; line: number }[], choice: ColumnChoice) {
  if (choice.reference) {
    const detail = `no column named ${JSON.stringify(choice.reference.slice(0, 100))} in the first ${HEADER_ROWS} rows`;
    return invalidRequest(`The file has ${detail}.`, [{ parameter: "reference_column", detail }]);
  }
  const likely = rows[Math.max(0, likelyHeader(rows.map((r) => r.values)))];
  return invalidRequest(
    `No row among the first ${HEADER_ROWS} names a reference column: none of ${ACCEPTED_LIST}. ` +
      "Rename the column that holds the references, or name it with reference_column.",
    [
      {
        line: likely?.line ?? 1,
        detail: `header is ${quoted(likely?.values ?? [])}: none of ${ACCEPTED_LIST}`,
      },
    ],
  );
}

/** The header row found lacks the external id column the partner named. */
export function noExternalIdColumn(header: readonly string[], line: number, name: string) {
  const detail = `no column named ${JSON.stringify(name.slice(0, 100))} in the header row (line ${line}, ${quoted(header)})`;
  return invalidRequest(`The file has ${detail}.`, [{ parameter: "external_id_column", detail }]);
}

/**
 * A header naming the reference column, or the external id's, twice (`refcat,…,refcat`, or `refcat`
 * beside `cadastral_reference`) is refused: which column is meant cannot be told, and reading the
 * first would drop the other's values without a word.
 */
export function twiceNamed(header: readonly string[], line: number, choice: ColumnChoice): DomainError | null {
  const externalId = headerKey(choice.externalId ?? EXTERNAL_ID_HEADER);
  const references = header.filter((cell) => namesReference(cell, choice));
  const ids = header.filter((cell) => headerKey(cell) === externalId);
  const twice = references.length > 1 ? references : ids.length > 1 ? ids : null;
  if (!twice) return null;
  const what = references.length > 1 ? "reference" : "external_id";
  const detail = `the header row (line ${line}) has two ${what} columns, ${quoted(twice)}: rename or remove one`;
  return invalidRequest(`The file's ${detail}.`, [{ line, detail }]);
}

/**
 * The items of a table's data rows (after its header, in pages): each row's reference and external
 * id. A request over the limit or with an unusable external id is refused whole.
 */
export async function itemsOfRows(
  pages: AsyncIterable<readonly (readonly string[])[]>,
  columns: Columns,
  maxItems: number,
): Promise<ItemInput[]> {
  const items: ItemInput[] = [];
  for await (const page of pages) {
    for (const row of page) {
      const line = items.length + 1;
      if (line > maxItems)
        throw invalidRequest(`At most ${maxItems} rows per batch.`, [
          { line, detail: `more than ${maxItems} data rows` },
        ]);
      const externalId = columns.externalId === null ? "" : (row[columns.externalId] ?? "").trim();
      const reference = row[columns.reference] ?? "";
      // Neither ever holds a line break: one that does is rows read into one (in a CSV, a quote opened
      // and not closed where the row ended), which would lose them without a word.
      if (/[\r\n]/.test(reference) || /[\r\n]/.test(externalId)) {
        const detail = "its reference or external_id runs over several lines (a quote opened and never closed?)";
        throw invalidRequest(`Data row ${line}: ${detail}; the rows after it were read into it.`, [{ line, detail }]);
      }
      const problem = textProblem(externalId);
      if (problem)
        throw invalidRequest(`external_id on data row ${line} ${problem}.`, [
          { line, detail: `external_id ${problem}` },
        ]);
      items.push({ reference, externalId: externalId || null });
    }
  }
  if (!items.length)
    throw invalidRequest("The file holds no data rows.", [{ line: 2, detail: "no data rows after the header" }]);
  return items;
}

/** Why an external_id or name cannot be kept, or null. PostgreSQL text cannot hold a NUL. */
export function textProblem(text: string): string | null {
  if (text.length > MAX_TEXT) return `is longer than ${MAX_TEXT} characters`;
  if (text.includes("\u0000")) return "contains a NUL character";
  return null;
}
