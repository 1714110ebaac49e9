// `finca sandbox refs`: test data without reading Finca's code. Valid cadastral references for
// test mode, ordinary ones (the sandbox answers them at once) or all of one scenario, written as
// a CSV or an XLSX workbook a partner uploads as a portfolio as it is (the Portfolios page,
// `finca batch submit`). New parcels on every run, since test mode registers a reference once per
// partner; --seed gives the same ones again.
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { stringify } from "csv-stringify/sync";
import { SCENARIOS, sandboxReferences } from "@/lib/enrichment/sources/sandbox";
import { UsageError } from "./batch.js";
import type { HelpEntry } from "./help.js";

const UNITS = Object.values(SCENARIOS);
/** A portfolio's rows at most (the server's default `BATCH_MAX_ITEMS`). */
const MAX_COUNT = 100_000;

export const SANDBOX_HELP: readonly HelpEntry[] = [
  {
    usage: `sandbox refs --count <n> [--scenario ${UNITS.join("|")}] [--format csv|xlsx] [--out <file>] [--seed <text>]`,
    text: `Valid test-mode references on new parcels, as a portfolio file (cadastral_reference, external_id):
      ordinary ones, answered at once, or all of one scenario (docs: "Test mode"). CSV to standard output or
      --out; XLSX to --out (default sandbox-refs.xlsx). --seed gives the same references again`,
  },
];

export async function sandboxCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      count: { type: "string" },
      scenario: { type: "string" },
      format: { type: "string", default: "csv" },
      out: { type: "string" },
      seed: { type: "string" },
    },
  });
  if (positionals.join(" ") !== "refs") throw new UsageError("use sandbox refs --count <n>");
  const count = Number(values.count);
  if (!/^\d+$/.test(values.count ?? "") || count < 1 || count > MAX_COUNT)
    throw new UsageError(`--count must be a whole number from 1 to ${MAX_COUNT.toLocaleString("en")}`);
  const scenario = values.scenario === undefined ? null : UNITS.find((u) => u === values.scenario);
  if (scenario === undefined) throw new UsageError(`--scenario must be one of ${UNITS.join(", ")}`);
  if (values.format !== "csv" && values.format !== "xlsx") throw new UsageError("--format must be csv or xlsx");
  const rows = sandboxReferences(count, scenario, values.seed ?? randomUUID()).map((reference, i) => [
    reference,
    `sandbox-${i + 1}`,
  ]);
  const header = ["cadastral_reference", "external_id"];
  if (values.format === "csv") {
    const csv = stringify([header, ...rows], { record_delimiter: "\r\n" });
    if (values.out) await writeFile(values.out, csv);
    else process.stdout.write(csv);
  } else {
    // exceljs is loaded only here: every other command starts without it.
    const { default: ExcelJS } = await import("exceljs");
    const book = new ExcelJS.Workbook();
    book.addWorksheet("References").addRows([header, ...rows]);
    await book.xlsx.writeFile(values.out ?? "sandbox-refs.xlsx");
  }
  if (values.out || values.format === "xlsx")
    console.log(`${count} references written to ${values.out ?? "sandbox-refs.xlsx"}`);
}
