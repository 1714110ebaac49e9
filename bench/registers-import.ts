// The register index importer on a synthetic file in the Catalonia (ICAEN j6ii-t3w2 export) format,
// against PostgreSQL's own COPY of the same file into a table of text columns, in the same run:
//   npx tsx bench/registers-import.ts [--rows 1000000]
// Also the index lookup a create makes (unit, then building) against a bare `select 1` round trip.
import { createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/db";
import { datasetById, importDataset, localFile, registerIndex } from "@/lib/registers";
import { benchReference, freshDatabase, percentile, round, writeResult } from "./lib";

const { values } = parseArgs({ options: { rows: { type: "string", default: "1000000" } } });
const ROWS = Number(values.rows);
const LOOKUPS = 5_000;

const HEADER = [
  "NUM_CAS", "ADREÇA", "POBLACIO", "CODI_PROVINCIA", "REFERENCIA CADASTRAL", "ZONA CLIMATICA", "ANY_CONSTRUCCIO", "US_EDIFICI",
  "Qualificació de consum d'energia primaria no renovable", "Energia primària no renovable", "Qualificacio d'emissions de CO2", "Emissions de CO2",
  "INFORME_INS_TECNICA_EDIFICI", "DATA_ENTRADA",
];
const LETTERS = "ABCDEFG";

/** Row i: a unit of its own parcel; some written dirty, some the bare parcel, some with an IITE code. */
function row(i: number): string {
  const unit = benchReference(i, "DF3802F");
  const reference = i % 50 === 0 ? `${unit.slice(0, 7)} ${unit.slice(7, 14)} ${unit.slice(14)}` : i % 20 === 0 ? unit.slice(0, 14) : unit;
  const letter = LETTERS[i % 7]!;
  const day = String(1 + (i % 28)).padStart(2, "0");
  return [`CAT-${i}`, `Carrer Sintètic ${i % 500}`, "Barcelona", "08", reference, "C2", String(1900 + (i % 120)), "Habitatge individual en bloc d'habitatges", letter, `${100 + (i % 300)},${i % 10}`, letter, `${10 + (i % 60)},${i % 10}`, i % 30 === 0 ? `IITE-${i}` : "", `${day}/0${1 + (i % 9)}/20${10 + (i % 15)}`].join(";");
}

async function writeFile(file: string) {
  const out = createWriteStream(file, { mode: 0o644 });
  out.write("\uFEFF" + HEADER.join(";") + "\r\n");
  for (let i = 0; i < ROWS; i++) if (!out.write(row(i) + "\r\n")) await once(out, "drain");
  out.end();
  await once(out, "finish");
}

const file = path.join(tmpdir(), `finca-bench-cat-${process.pid}.csv`);
const created = await freshDatabase("finca_bench_registers");
const database = await openDatabase({ url: created.url });
try {
  await writeFile(file);
  const bytes = (await stat(file)).size;
  console.log(`${ROWS.toLocaleString("en")} rows, ${round(bytes / 1e6)} MB in ${file}`);

  // Baseline: the server reads the same file itself (COPY FROM a file needs a superuser, as in this bench's database).
  await database.db.execute(sql.raw(`create table bench_copy (${HEADER.map((_, i) => `c${i} text`).join(", ")})`));
  let started = performance.now();
  await database.db.execute(sql.raw(`copy bench_copy from '${file}' with (format csv, header true, delimiter ';', encoding 'UTF8')`));
  const copySeconds = (performance.now() - started) / 1000;

  started = performance.now();
  const result = await importDataset(database.db, datasetById("cat-icaen")!, [localFile(file)], { asOf: "2026-11-01" });
  const importSeconds = (performance.now() - started) / 1000;

  // Lookups as a create makes them, for units spread over the file, and the round trip alone.
  const index = registerIndex(database.db);
  const lookup: number[] = [];
  const roundTrip: number[] = [];
  for (let n = 0; n < LOOKUPS; n++) {
    const unit = benchReference(Math.floor((n / LOOKUPS) * ROWS) + 1, "DF3802F");
    let t = performance.now();
    await index.certificate({ parcel: unit.slice(0, 14), unit: unit.slice(0, 18) });
    lookup.push(performance.now() - t);
    t = performance.now();
    await database.db.execute(sql`select 1`);
    roundTrip.push(performance.now() - t);
  }
  lookup.sort((a, b) => a - b);
  roundTrip.sort((a, b) => a - b);

  const figures = {
    rows: ROWS,
    megabytes: round(bytes / 1e6),
    copy: { seconds: round(copySeconds, 2), rowsPerSecond: Math.round(ROWS / copySeconds) },
    import: { seconds: round(importSeconds, 2), rowsPerSecond: Math.round(ROWS / importSeconds), records: result.rows, skipped: result.skipped },
    importVsCopy: round(importSeconds / copySeconds, 1),
    lookupMs: { p50: round(percentile(lookup, 50), 2), p99: round(percentile(lookup, 99), 2) },
    selectOneMs: { p50: round(percentile(roundTrip, 50), 2), p99: round(percentile(roundTrip, 99), 2) },
  };
  console.log(JSON.stringify(figures, null, 2));
  console.log(`written to ${await writeResult("registers-import", figures)}`);
} finally {
  await database.close();
  await created.drop();
  await rm(file, { force: true });
}
