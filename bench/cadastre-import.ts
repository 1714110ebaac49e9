// The cadastre index at province size (#41): a synthetic municipality of --parcels parcels written in
// the shapes of the constructed samples (lib/registers/catastro-*/fixtures: CAT records 11, 13, 15
// and INSPIRE CP, BU and AD GML), imported as operators do, against PostgreSQL's own COPY of the CAT
// file's lines into a one-column table in the same run (the floor of any import of those bytes).
//   npx tsx bench/cadastre-import.ts [--parcels 100000] [--units 4]
// Reports time, records/s, the ratio to COPY, the process's peak memory (constant memory: it must not
// grow with the file), the index's size on disk per parcel, and the lookup a live create makes
// against a bare `select 1` round trip.
import { createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { checkLetters } from "@/lib/cadastral-reference";
import { openDatabase, rowsOf } from "@/lib/db";
import { importCadastre, localFile, registerIndex } from "@/lib/registers";
import { freshDatabase, percentile, round, writeResult } from "./lib";

const { values } = parseArgs({
  options: { parcels: { type: "string", default: "100000" }, units: { type: "string", default: "4" } },
});
const PARCELS = Number(values.parcels);
const UNITS = Number(values.units);
const LOOKUPS = Math.min(5_000, PARCELS);

/** Parcel i's reference: 7 digits and a made-up sheet, unique per i (no check letters in a parcel reference). */
const parcel = (i: number) => `${String(i).padStart(7, "0")}VK4704F`;

function catRecord(type: number, fields: [number, string][]): string {
  const chars = [...String(type).padStart(2, "0").padEnd(1000, " ")];
  for (const [start, value] of fields) chars.splice(start - 1, value.length, ...value);
  return chars.join("");
}

async function writeLines(file: string, lines: () => Generator<string>, encoding: BufferEncoding = "latin1") {
  // Readable by the PostgreSQL server, whose COPY reads the CAT file itself.
  const out = createWriteStream(file, { mode: 0o644 });
  for (const line of lines()) if (!out.write(Buffer.from(`${line}\r\n`, encoding))) await once(out, "drain");
  out.end();
  await once(out, "finish");
}

function* catLines(): Generator<string> {
  const place: [number, string][] = [
    [24, "28"],
    [26, "900"],
  ];
  yield catRecord(1, [[40, "20260315"]]);
  for (let i = 0; i < PARCELS; i++) {
    const p = parcel(i);
    yield catRecord(11, [
      ...place,
      [31, p],
      [51, "28"],
      [81, "079"],
      [164, "ALCALÁ"],
      [241, "28009"],
      [296, "0000000512"],
    ]);
    yield catRecord(13, [...place, [31, p], [45, "0001"], [296, String(1900 + (i % 120))]]);
    for (let u = 1; u <= UNITS; u++) {
      const seq = String(u).padStart(4, "0");
      yield catRecord(15, [
        ...place,
        [29, "UR"],
        [31, p],
        [45, seq],
        [49, checkLetters(p + seq)],
        [283, "28009"],
        [372, String(1900 + (i % 120))],
        [428, "V"],
        [442, "0000000090"],
        [462, "025000000"],
      ]);
    }
  }
  const count = (n: number) => String(n).padStart(7, "0");
  yield catRecord(90, [
    [10, count(PARCELS)],
    [24, count(PARCELS)],
    [31, count(0)],
    [38, count(PARCELS * UNITS)],
  ]);
}

const ring = (x: number, y: number) => `${x} ${y} ${x + 20} ${y} ${x + 20} ${y + 20} ${x} ${y + 20} ${x} ${y}`;
const at = (i: number) => [400_000 + (i % 1000) * 25, 4_400_000 + Math.floor(i / 1000) * 25] as const;

function* gml(kind: "CP" | "BU" | "AD"): Generator<string> {
  yield '<?xml version="1.0" encoding="ISO-8859-1"?>';
  yield `<gml:FeatureCollection xmlns:gml="http://www.opengis.net/gml/3.2" xmlns:xlink="http://www.w3.org/1999/xlink" gml:id="ES.SDGC.${kind}">`;
  for (let i = 0; i < PARCELS; i++) {
    const p = parcel(i);
    const [x, y] = at(i);
    const surface = `<gml:Surface srsName="urn:ogc:def:crs:EPSG::25830"><gml:patches><gml:PolygonPatch><gml:exterior><gml:LinearRing><gml:posList srsDimension="2" count="5">${ring(x, y)}</gml:posList></gml:LinearRing></gml:exterior></gml:PolygonPatch></gml:patches></gml:Surface>`;
    if (kind === "CP")
      yield `<gml:featureMember><cp:CadastralParcel gml:id="ES.SDGC.CP.${p}"><cp:areaValue uom="m2">512</cp:areaValue><cp:beginLifespanVersion>2014-09-15T00:00:00</cp:beginLifespanVersion><cp:geometry>${surface}</cp:geometry></cp:CadastralParcel></gml:featureMember>`;
    else if (kind === "BU")
      yield `<gml:featureMember><bu-ext2d:Building gml:id="ES.SDGC.BU.${p}"><bu-core2d:beginLifespanVersion>2015-11-24T00:00:00</bu-core2d:beginLifespanVersion><bu-core2d:dateOfConstruction><bu-core2d:DateOfEvent><bu-core2d:beginning>1968-01-01T00:00:00</bu-core2d:beginning><bu-core2d:end>1968-01-01T00:00:00</bu-core2d:end></bu-core2d:DateOfEvent></bu-core2d:dateOfConstruction><bu-ext2d:geometry>${surface}</bu-ext2d:geometry><bu-ext2d:currentUse>1_residential</bu-ext2d:currentUse><bu-ext2d:numberOfBuildingUnits>${UNITS}</bu-ext2d:numberOfBuildingUnits><bu-ext2d:numberOfDwellings>${UNITS}</bu-ext2d:numberOfDwellings></bu-ext2d:Building></gml:featureMember>`;
    else
      yield `<gml:featureMember><AD:Address gml:id="ES.SDGC.AD.28.900.${i % 500}.${i}.${p}"><AD:position><AD:GeographicPosition><AD:geometry><gml:Point srsName="urn:ogc:def:crs:EPSG::25830"><gml:pos>${x + 10} ${y}</gml:pos></gml:Point></AD:geometry><AD:specification>Entrance</AD:specification></AD:GeographicPosition></AD:position><AD:locator><AD:AddressLocator><AD:designator><AD:LocatorDesignator><AD:designator>${i % 200}</AD:designator></AD:LocatorDesignator></AD:designator></AD:AddressLocator></AD:locator><AD:component xlink:href="#ES.SDGC.TN.28.900.${i % 500}"/><AD:component xlink:href="#ES.SDGC.PD.28.900.28009"/></AD:Address></gml:featureMember>`;
  }
  if (kind === "AD") {
    for (let s = 0; s < 500; s++)
      yield `<gml:featureMember><AD:ThoroughfareName gml:id="ES.SDGC.TN.28.900.${s}"><AD:name><GN:SpellingOfName><GN:text>CL CALLE ${s}</GN:text></GN:SpellingOfName></AD:name></AD:ThoroughfareName></gml:featureMember>`;
    yield '<gml:featureMember><AD:PostalDescriptor gml:id="ES.SDGC.PD.28.900.28009"><AD:postCode>28009</AD:postCode></AD:PostalDescriptor></gml:featureMember>';
  }
  yield "</gml:FeatureCollection>";
}

const named = (name: string) => path.join(tmpdir(), `finca-bench-${process.pid}-${name}`);
const files = {
  cat: named("28_900_U.CAT"),
  cp: named("A.ES.SDGC.CP.28900.cadastralparcel.gml"),
  bu: named("A.ES.SDGC.BU.28900.building.gml"),
  ad: named("A.ES.SDGC.AD.28900.address.gml"),
};
await writeLines(files.cat, catLines);
await writeLines(files.cp, () => gml("CP"), "utf8");
await writeLines(files.bu, () => gml("BU"), "utf8");
await writeLines(files.ad, () => gml("AD"), "utf8");
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
    const p = parcel(pick(n));
    const hit = await index.cadastre(`${p}0001${checkLetters(`${p}0001`)}`);
    if (!hit) throw new Error(`unit of parcel ${p} not found`);
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
