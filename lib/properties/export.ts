// The Properties list as CSV (the portal's download): every property the list's filters select,
// newest first, read a page at a time so that a large list never sits in memory whole.
import type { DbOrTx } from "@/lib/db";
import type { Property, Scope } from "@/lib/domain";
import { csvStream } from "@/lib/spreadsheets";
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

async function* pages(db: DbOrTx, scope: Scope, filters: ExportFilters, pageSize: number) {
  let startingAfter: string | undefined;
  do {
    const page = await listProperties(db, scope, { ...filters, limit: pageSize, startingAfter });
    if (!page) return;
    yield page.data.map((p) => COLUMNS.map(([, cell]) => cell(p) ?? ""));
    startingAfter = page.next_starting_after ?? undefined;
  } while (startingAfter);
}

export type ExportFilters = Omit<ListOptions, "limit" | "startingAfter">;

/** The CSV as a stream: the header, then `pageSize` properties at a time, read as the client takes them. */
export const propertiesCsv = (db: DbOrTx, scope: Scope, filters: ExportFilters, pageSize = 500) =>
  csvStream(PROPERTY_CSV_HEADER, pages(db, scope, filters, pageSize));
