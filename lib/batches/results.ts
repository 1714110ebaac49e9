// A batch's results: every item in input order with its property, as CSV (UTF-8 with BOM, RFC 4180,
// fields holding a separator quoted and formula starts neutralised), XLSX (typed cells, texts as given) or
// NDJSON (`{item, property}` a line).
// Read from the database a page at a time by line (a keyset cursor): memory stays constant however
// large the batch, and no connection or transaction is held while a slow client reads.
import { once } from "node:events";
import { PassThrough } from "node:stream";
import { and, asc, eq, gt } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";
import type { BatchItem, Property, Scope } from "@/lib/domain";
import { propertiesById } from "@/lib/properties";
import { excel } from "@/lib/spreadsheets";
import { requireLiveAccess } from "@/lib/partners/live";
import { getBatch, toItem } from "./views";

const { batchItems } = schema;

/** Items per database read while streaming. */
const PAGE = 500;

export interface Result {
  item: BatchItem;
  property: Property | null;
}

/**
 * Every item of the batch from the start, in pages, each with its property (null when it has none).
 * The next page's items are read while this page's properties are: the database works while the
 * rows are turned into results.
 */
export async function* results(db: DbOrTx, scope: Scope, batchId: string): AsyncGenerator<Result[]> {
  const itemsAfter = (after: number) =>
    db
      .select()
      .from(batchItems)
      .where(and(eq(batchItems.batchId, batchId), gt(batchItems.line, after)))
      .orderBy(asc(batchItems.line))
      .limit(PAGE);
  let next = itemsAfter(0);
  try {
    for (;;) {
      const rows = await next;
      if (!rows.length) return;
      next = itemsAfter(rows.at(-1)!.line);
      const properties = await propertiesById(db, scope, [
        ...new Set(rows.flatMap((r) => (r.propertyId ? [r.propertyId] : []))),
      ]);
      yield rows.map((r) => ({
        item: toItem(r),
        property: r.propertyId ? (properties.get(r.propertyId) ?? null) : null,
      }));
    }
  } finally {
    // A reader gone mid-stream leaves a read under way: its outcome is no one's.
    next.catch(() => {});
  }
}

/** A results cell: text, a number or a boolean (XLSX cells keep their type), null when empty. */
type Cell = string | number | boolean | null;

/** A column holding a date (YYYY-MM-DD) or a timestamp (ISO 8601): a date cell in XLSX, the text in CSV. */
type Kind = "date" | "timestamp";

/**
 * The contract's CSV columns, in order, and how each is read from an item and its property.
 * Columns are only ever appended, in the contract's order.
 */
const COLUMNS: [string, (r: Result) => Cell | undefined, Kind?][] = [
  ["line", (r) => r.item.line],
  ["external_id", (r) => r.item.external_id],
  ["cadastral_reference", (r) => r.item.cadastral_reference],
  ["status", (r) => r.item.status],
  ["property_id", (r) => r.item.property_id],
  ["address", (r) => r.property?.address],
  ["municipality", (r) => r.property?.municipality],
  ["province", (r) => r.property?.province],
  ["ccaa", (r) => r.property?.ccaa],
  ["year_built", (r) => r.property?.year_built],
  ["climate_zone", (r) => r.property?.climate_zone],
  ["use", (r) => r.property?.use],
  ["built_area_m2", (r) => r.property?.built_area_m2],
  ["energy_rating", (r) => r.property?.energy_certificate?.rating],
  ["energy_source", (r) => r.property?.energy_certificate?.source],
  ["primary_energy_kwh_m2_year", (r) => r.property?.energy_certificate?.primary_energy_kwh_m2_year],
  ["emissions_kg_co2_m2_year", (r) => r.property?.energy_certificate?.emissions_kg_co2_m2_year],
  ["certificate_valid_until", (r) => r.property?.energy_certificate?.valid_until, "date"],
  ["ite_fetch_status", (r) => r.property?.ite_fetch_status],
  ["ite_next_due_on", (r) => r.property?.ite?.next_due_on, "date"],
  ["latitude", (r) => r.property?.location?.latitude],
  ["longitude", (r) => r.property?.location?.longitude],
  ["error_code", (r) => r.item.error?.code],
  ["postal_code", (r) => r.property?.postal_code],
  ["municipality_code", (r) => r.property?.municipality_code],
  ["energy_certificate_id", (r) => r.property?.energy_certificate?.certificate_id],
  ["energy_issued_on", (r) => r.property?.energy_certificate?.issued_on, "date"],
  ["energy_expired", (r) => r.property?.energy_certificate?.expired],
  ["emissions_rating", (r) => r.property?.energy_certificate?.emissions_rating],
  ["estimate_confidence", (r) => r.property?.energy_certificate?.confidence],
  ["estimate_range_from", (r) => r.property?.energy_certificate?.plausible_range?.from],
  ["estimate_range_to", (r) => r.property?.energy_certificate?.plausible_range?.to],
  ["ite_overdue", (r) => r.property?.ite?.overdue],
  ["energy_as_of", (r) => r.property?.enrichment.energy_certificate.as_of, "date"],
  ["attribution", (r) => r.property?.attribution.join("; ") || null],
  ["enriched_at", (r) => r.property?.enriched_at, "timestamp"],
];

export const RESULT_COLUMNS = COLUMNS.map(([name]) => name);

/** One result as the CSV's cells (null for an empty cell; numbers stay numbers). */
export const resultCells = (r: Result): Cell[] => COLUMNS.map(([, read]) => read(r) ?? null);

/** Excel's number format for each date column (Excel has no time zone: timestamps are shown in UTC). */
const FORMATS: Record<Kind, string> = { date: "yyyy-mm-dd", timestamp: "yyyy-mm-dd hh:mm:ss" };

/** One result as the workbook's cells: as the CSV's, with dates and timestamps as date cells (UTC). */
const workbookCells = (r: Result): (Cell | Date)[] =>
  COLUMNS.map(([, read, kind]) => {
    const cell = read(r) ?? null;
    if (!kind || typeof cell !== "string") return cell;
    return new Date(kind === "date" ? `${cell}T00:00:00Z` : cell);
  });

/** Characters that end a cell for some reader: a comma, Spanish-locale Excel's `;`, a quote, tab, CR, LF. */
const SEPARATOR = /[;,"\t\r\n]/;
/**
 * A formula's start (OWASP's CSV injection list, as csv-stringify's `escape_formulas`) at the cell's
 * start or after a separator: a reader that splits the cell there (Excel with `;` as its list
 * separator, a cell pasted line by line) would get a cell that starts with it.
 */
const FORMULA_START = /(^|[;,"\t\r\n])(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/g;

/** Text with every formula start neutralised by a leading quote (`'=1+1`, `a;'=1+1`). */
export const neutralised = (text: string) => text.replace(FORMULA_START, "$1'");

/**
 * A CSV cell (RFC 4180): formula starts neutralised, quoted when it holds a separator; numbers and
 * booleans as they are.
 */
function csvCell(cell: Cell): string {
  if (cell === null || typeof cell !== "string") return cell === null ? "" : String(cell);
  const text = neutralised(cell);
  return SEPARATOR.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * CSV lines (CRLF), as csv-stringify writes them with `quoted_match` and this file's `neutralised` as
 * its string cast (lib/batches/results.test.ts compares). Written here: csv-stringify's per-cell
 * bookkeeping made 4 KB of garbage per results row and took 3 times as long (8.5 against 2.8 ms for
 * 500 rows), most of the CPU and memory of streaming a large batch.
 */
export const csvLines = (rows: Cell[][]) => rows.map((cells) => `${cells.map(csvCell).join(",")}\r\n`).join("");

/** NDJSON lines: `{item, property}` a line. */
export const ndjsonLines = (results: Result[]) => results.map((r) => `${JSON.stringify(r)}\n`).join("");

/** Each results format's media type: what `Accept` asks for and `Content-Type` answers. */
export const RESULTS_MEDIA_TYPES = {
  csv: "text/csv",
  ndjson: "application/x-ndjson",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;
export type ResultsFormat = keyof typeof RESULTS_MEDIA_TYPES;

/** The `Content-Type` of results in a format (the text ones say they are UTF-8). */
export const resultsContentType = (format: ResultsFormat) =>
  format === "xlsx" ? RESULTS_MEDIA_TYPES.xlsx : `${RESULTS_MEDIA_TYPES[format]}; charset=utf-8`;

/**
 * A batch's results to download (the API's and the portal's), or null when the batch is not the
 * scope's: live access is checked first, as for every live command.
 */
export async function exportResults(db: DbOrTx, scope: Scope, batchId: string) {
  await requireLiveAccess(db, scope);
  const batch = await getBatch(db, scope, batchId);
  return batch && { batch, stream: (format: ResultsFormat) => resultsStream(db, scope, batch.batch_id, format) };
}

/** The results as a byte stream, produced page by page as the client reads. */
export function resultsStream(
  db: DbOrTx,
  scope: Scope,
  batchId: string,
  format: ResultsFormat,
): ReadableStream<Uint8Array> {
  if (format === "xlsx") return workbookStream(db, scope, batchId);
  const encoder = new TextEncoder();
  const pages = results(db, scope, batchId);
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started && format === "csv") controller.enqueue(encoder.encode(`\uFEFF${csvLines([RESULT_COLUMNS])}`));
      started = true;
      const next = await pages.next();
      if (next.done) return controller.close();
      const text = format === "csv" ? csvLines(next.value.map(resultCells)) : ndjsonLines(next.value);
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}

/**
 * The results as an XLSX workbook (one sheet, the CSV's columns), written by exceljs' streaming
 * writer as pages are read. Text cells are stored as text, exactly as given: a value starting with `=` or
 * `+` is never a formula, so nothing is neutralised (a join back on `external_id` finds it).
 */
function workbookStream(db: DbOrTx, scope: Scope, batchId: string): ReadableStream<Uint8Array> {
  const out = new PassThrough();
  const pages = results(db, scope, batchId);
  const write = async () => {
    const { stream } = await excel();
    // Styles hold the date columns' number formats (one per column: a constant size); shared strings
    // would keep every text in memory until the end, so texts are written inline.
    const workbook = new stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
    const sheet = workbook.addWorksheet("Results");
    sheet.columns = COLUMNS.map(([name, , kind]) => ({ key: name, style: kind ? { numFmt: FORMATS[kind] } : {} }));
    sheet.addRow(RESULT_COLUMNS).commit();
    for await (const page of pages) {
      for (const result of page) sheet.addRow(workbookCells(result)).commit();
      // The reader sets the pace: the next page is read once what is written has drained.
      if (out.writableNeedDrain) await Promise.race([once(out, "drain"), once(out, "close")]);
      if (out.destroyed) return;
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: Error) => out.destroy(error));
  const chunks = out[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(new Uint8Array(next.value as Buffer));
    },
    async cancel() {
      await pages.return(undefined);
      out.destroy();
    },
  });
}
