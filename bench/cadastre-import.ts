// The cadastre index at province size (#41): a synthetic municipality of --parcels parcels written in
// the shapes of the constructed samples (lib/registers/catastro-*/fixtures: CAT records 11, 13, 15
// and INSPIRE CP, BU and AD GML), imported as operators do, against PostgreSQL's own COPY of the CAT
// file's lines into a one-column table in the same run (the floor of any import of those bytes).
//   npx tsx bench/cadastre-import.ts [--parcels 100000] [--units 4]
// Reports time, records/s, the ratio to COPY, the process's peak memory (constant memory: it must not
// grow with the file), the index's size on disk per parcel, and the lookup a live create makes
// against a bare `select 1` round trip.
import { rm, stat } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf } from "@/lib/db";
import { importCadastre, localFile, registerIndex } from "@/lib/registers";
import { parcel, unit, writeCadastreFiles } from "./cadastre-files";
import { benchOptions, freshDatabase, percentile, round, writeResult } from "./lib";

const { parcels: PARCELS, units: UNITS } = benchOptions({ parcels: 100000, units: 4 });
const LOOKUPS = Math.min(5_000, PARCELS);

const files = await writeCadastreFiles(PARCELS, UNITS);
const bytes = Object.fromEntries(
  await Promise.all(Object.entries(files).map(async ([k, f]) => [k, (await stat(f)).size] as const)),
);

const created = await freshDatabase("finca_bench_cadastre");
// COPY of a province-sized file on a busy machine outlasts the product's per-query bound.
const database = await openDatabase({ url: created.url, postgres: { queryTimeoutMs: 1_800_000 } });
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
try {
  const rssBefore = process.memoryUsage().rss;
  // The floor: the server reads the CAT file's lines into a table of one text column itself (COPY FROM a
  // file needs a superuser, as in this bench's database).
  await database.db.execute(sql`create table copy_floor (line text)`);
  let started = performance.now();
  await database.db.execute(sql.raw(`copy copy_floor from '${files.cat}' with (format text, encoding 'LATIN1')`));
  const copyMs = performance.now() - started;

  started = performance.now();
  const cat = await importCadastre(database.db, "catastro-cat", [localFile(files.cat)]);
  const catMs = performance.now() - started;
  started = performance.now();
  const inspire = await importCadastre(database.db, "catastro-inspire", [files.cp, files.bu, files.ad].map(localFile));
  const inspireMs = performance.now() - started;
  const rssAfterImports = process.memoryUsage().rss;

  const [size] = rowsOf<{ bytes: string }>(
    await database.db.execute(sql`select pg_total_relation_size('cadastre_records')::text as bytes`),
  );
  const catRecords = Object.values(cat.counts).reduce((a, b) => a + b, 0);
  const inspireRecords = Object.values(inspire.counts).reduce((a, b) => a + b, 0);

  // The lookup a live create makes, against the bare round trip.
  const index = registerIndex(database.db);
  const timed = async (run: (i: number) => Promise<unknown>) => {
    const ms: number[] = [];
    for (let n = 0; n < LOOKUPS; n++) {
      const t = performance.now();
      await run(n);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    return { p50: round(percentile(ms, 50), 2), p99: round(percentile(ms, 99), 2) };
  };
  const pick = (n: number) => Math.floor((n * 7919) % PARCELS);
  const roundTrip = await timed(() => database.db.execute(sql`select 1`));
  const unitLookup = await timed(async (n) => {
    const asked = unit(pick(n), 1);
    if (!(await index.cadastre(asked))) throw new Error(`unit ${asked} not found`);
  });
  const parcelLookup = await timed(async (n) => {
    if (!(await index.cadastre(parcel(pick(n))))) throw new Error("parcel not found");
  });

  const perSecond = (records: number, ms: number) => Math.round(records / (ms / 1000));
  const result = {
    parcels: PARCELS,
    unitsPerParcel: UNITS,
    fileBytes: bytes,
    copyFloor: { ms: Math.round(copyMs), linesPerSecond: perSecond(PARCELS * (2 + UNITS) + 2, copyMs) },
    catastroCat: {
      ms: Math.round(catMs),
      records: catRecords,
      recordsPerSecond: perSecond(catRecords, catMs),
      ratioToCopy: round(copyMs / catMs, 2),
      asOf: cat.asOf,
    },
    catastroInspire: {
      ms: Math.round(inspireMs),
      records: inspireRecords,
      featuresPerSecond: perSecond(inspireRecords, inspireMs),
      asOf: inspire.asOf,
    },
    memory: {
      rssBeforeMiB: round(rssBefore / 2 ** 20),
      peakRssMiB: round(peakRss / 2 ** 20),
      rssAfterImportsMiB: round(rssAfterImports / 2 ** 20),
    },
    indexBytes: Number(size!.bytes),
    indexBytesPerParcel: Math.round(Number(size!.bytes) / PARCELS),
    lookupsMs: { roundTrip, unit: unitLookup, parcel: parcelLookup },
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(`written to ${await writeResult("cadastre-import", result)}`);
} finally {
  clearInterval(sampler);
  await database.close();
  await created.drop();
  await Promise.all(Object.values(files).map((file) => rm(file, { force: true })));
}
