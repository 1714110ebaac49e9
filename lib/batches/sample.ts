// A sample portfolio for test mode, for partners who have no file at hand (the Portfolios page and
// its guide offer it as CSV and XLSX): valid sandbox references on new parcels at each download
// (test mode registers a reference once per partner), most answered at once and one of each
// scenario, with the external ids a loan book would carry.
import { stringify } from "csv-stringify/sync";
import { SCENARIOS, sandboxReferences } from "@/lib/enrichment/sources/sandbox";
import { excel } from "@/lib/spreadsheets";

export const SAMPLE_ORDINARY = 16;
export const SAMPLE_HEADER = ["cadastral_reference", "external_id"] as const;

/** The sample's rows: the ordinary references, then one of each scenario, on parcels drawn from `seed`. */
export function sampleRows(seed: string): string[][] {
  const references = [
    ...sandboxReferences(SAMPLE_ORDINARY, null, seed),
    ...Object.values(SCENARIOS).flatMap((unit) => sandboxReferences(1, unit, `${seed}:${unit}`)),
  ];
  return references.map((reference, i) => [reference, `loan-${String(i + 1).padStart(3, "0")}`]);
}

/** The sample as the file a partner downloads. */
export async function samplePortfolio(format: "csv" | "xlsx", seed: string): Promise<Uint8Array<ArrayBuffer>> {
  const rows = [[...SAMPLE_HEADER], ...sampleRows(seed)];
  if (format === "csv") return new TextEncoder().encode(stringify(rows, { record_delimiter: "\r\n" }));
  const book = new (await excel()).Workbook();
  book.addWorksheet("Portfolio").addRows(rows);
  return new Uint8Array(await book.xlsx.writeBuffer());
}
