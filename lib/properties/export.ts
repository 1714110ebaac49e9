// The Properties list as CSV (the portal's download): every property the list's filters select,
// newest first, read a page at a time so that a large list never sits in memory whole.
import { stringify } from "csv-stringify/sync";
import type { DbOrTx } from "@/lib/db";
import type { Property, Scope } from "@/lib/domain";
import { listProperties, type ListOptions } from "./read";

const COLUMNS: [string, (p: Property) => string | number | null | undefined][] = [
  ["property_id", (p) => p.property_id],
  ["cadastral_reference", (p) => p.cadastral_reference],
  ["status", (p) => p.status],
  ["address", (p) => p.address],
  ["municipality", (p) => p.municipality],
  ["province", (p) => p.province],
  ["year_built", (p) => p.year_built],
  ["energy_rating", (p) => p.energy_certificate?.rating],
  ["energy_rating_source", (p) => p.energy_certificate?.source],
  ["created_at", (p) => p.created_at],
  ["enriched_at", (p) => p.enriched_at],
];

/** The CSV header. */
export const PROPERTY_CSV_HEADER = COLUMNS.map(([name]) => name);

// Addresses come from registers: a cell a spreadsheet would run as a formula is neutralised.
const csv = (rows: unknown[][]) => stringify(rows, { escape_formulas: true, record_delimiter: "windows" });

async function* pages(db: DbOrTx, scope: Scope, filters: ExportFilters, pageSize: number) {
  let startingAfter: string | undefined;
  do {
    const page = await listProperties(db, scope, { ...filters, limit: pageSize, startingAfter });
    if (!page) return;
    yield page.data;
    startingAfter = page.next_starting_after ?? undefined;
  } while (startingAfter);
}

export type ExportFilters = Omit<ListOptions, "limit" | "startingAfter">;

/**
 * The CSV as a stream (UTF-8 with a BOM, as the portfolio results, so that Excel reads accents): the
 * header, then `pageSize` properties at a time, read as the client takes them.
 */
export function propertiesCsv(db: DbOrTx, scope: Scope, filters: ExportFilters, pageSize = 500) {
  const encoder = new TextEncoder();
  const rows = pages(db, scope, filters, pageSize);
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) controller.enqueue(encoder.encode(`\uFEFF${csv([PROPERTY_CSV_HEADER])}`));
      started = true;
      const next = await rows.next();
      if (next.done) return controller.close();
      if (next.value.length)
        controller.enqueue(encoder.encode(csv(next.value.map((p) => COLUMNS.map(([, cell]) => cell(p) ?? "")))));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
}
