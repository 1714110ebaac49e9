// The register index importer on a synthetic file in the Catalonia (ICAEN j6ii-t3w2 export) format,
// against PostgreSQL's own COPY of the same file into a table of text columns, in the same run:
//   npx tsx bench/registers-import.ts [--rows 1000000]
// Also the index lookup a create makes (unit, then building) against a bare `select 1` round trip,
// and the lookup inside a create: POST /properties with live keys through the lean server, Catastro
// and ICAEN replayed locally at once, for a unit the index holds, a unit it does not (then ICAEN is
// asked), against creates in a region whose certificate no register is asked for (the baseline).
import { createWriteStream, readFileSync } from "node:fs";
import http from "node:http";
import { rm, stat } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { openDatabase, schema, type Db } from "@/lib/db";
import { datasetById, importDataset, localFile, registerIndex } from "@/lib/registers";
import {
  benchOptions,
  benchReference,
  CREATE_PATH,
  dnprcAnswer,
  freePort,
  freshDatabase,
  load,
  percentile,
  READY_PATH,
  round,
  seedPartnerKeys,
  startServer,
  writeResult,
  type LoadResult,
} from "./lib";
import { stopGroup } from "@/test/support/processes";

const { rows: ROWS, creates: CREATES } = benchOptions({ rows: 1000000, creates: 3000 });
const LOOKUPS = Math.min(5_000, ROWS);

const HEADER = [
  "NUM_CAS",
  "ADREÇA",
  "POBLACIO",
  "CODI_PROVINCIA",
  "REFERENCIA CADASTRAL",
  "ZONA CLIMATICA",
  "ANY_CONSTRUCCIO",
  "US_EDIFICI",
  "Qualificació de consum d'energia primaria no renovable",
  "Energia primària no renovable",
  "Qualificacio d'emissions de CO2",
  "Emissions de CO2",
  "INFORME_INS_TECNICA_EDIFICI",
  "DATA_ENTRADA",
];
const LETTERS = "ABCDEFG";

/** Row i: a unit of its own parcel; some written dirty, some the bare parcel, some with an IITE code. */
function row(i: number): string {
  const unit = benchReference(i, "DF3802F");
  const reference =
    i % 50 === 0
      ? `${unit.slice(0, 7)} ${unit.slice(7, 14)} ${unit.slice(14)}`
      : i % 20 === 0
        ? unit.slice(0, 14)
        : unit;
  const letter = LETTERS[i % 7]!;
  const day = String(1 + (i % 28)).padStart(2, "0");
  return [
    `CAT-${i}`,
    `Carrer Sintètic ${i % 500}`,
    "Barcelona",
    "08",
    reference,
    "C2",
    String(1900 + (i % 120)),
    "Habitatge individual en bloc d'habitatges",
    letter,
    `${100 + (i % 300)},${i % 10}`,
    letter,
    `${10 + (i % 60)},${i % 10}`,
    i % 30 === 0 ? `IITE-${i}` : "",
    `${day}/0${1 + (i % 9)}/20${10 + (i % 15)}`,
  ].join(";");
}

async function writeFile(file: string) {
  const out = createWriteStream(file, { mode: 0o644 });
  out.write("\uFEFF" + HEADER.join(";") + "\r\n");
  for (let i = 0; i < ROWS; i++) if (!out.write(row(i) + "\r\n")) await once(out, "drain");
  out.end();
  await once(out, "finish");
}

/** Where the replayed Catastro puts a reference, by its pc2: Barcelona (the index's) or Murcia (no register). */
const PLACES: Record<string, { cp: string; cm: string; name: string }> = {
  DF3802F: { cp: "8", cm: "19", name: "BARCELONA" },
  DF3802G: { cp: "8", cm: "19", name: "BARCELONA" },
  XH6591N: { cp: "30", cm: "30", name: "MURCIA" },
  XH6591P: { cp: "30", cm: "30", name: "MURCIA" },
};
const fixture = (name: string) => readFileSync(path.join("lib/enrichment/sources/cadastre/fixtures", name), "utf8");
const CPMRC = fixture("json-cpmrc-6344205CF7664S.json");

/** The certificate step's own time inside each inline run (the engine's attempt log), per reference tag. */
async function certificateStepMs(db: Db): Promise<Map<string, number[]>> {
  const { enrichmentAttempts: a, properties: p } = schema;
  const rows = await db
    .select({ tag: sql<string>`substr(${p.cadastralReference}, 8, 7)`, ms: a.durationMs })
    .from(a)
    .innerJoin(p, eq(p.id, a.propertyId))
    .where(and(eq(a.source, "energy_certificate"), eq(a.trigger, "inline")));
  const byTag = new Map<string, number[]>();
  for (const { tag, ms } of rows) {
    if (!byTag.has(tag)) byTag.set(tag, []);
    byTag.get(tag)!.push(ms);
  }
  return byTag;
}

async function createLatencies(url: string, db: Db) {
  // Catastro and ICAEN's Socrata (nothing registered, for certificates and IITE codes alike), answering at once.
  const registers = http.createServer((req, res) => {
    const asked = new URL(req.url!, "http://registers");
    res.setHeader("content-type", "application/json");
    const reference = asked.searchParams.get("RefCat")!;
    if (asked.pathname.endsWith("/Consulta_DNPRC")) res.end(dnprcAnswer(reference, PLACES[reference.slice(7, 14)]!));
    else if (asked.pathname.endsWith("/Consulta_CPMRC")) res.end(CPMRC);
    else res.end("[]");
  });
  await new Promise<void>((r) => registers.listen(0, "127.0.0.1", r));
  const registersUrl = `http://127.0.0.1:${(registers.address() as { port: number }).port}`;
  const scenarios = [
    {
      label: "baseline: no certificate register for the region (Murcia)",
      tag: "XH6591N",
      reference: (n: number) => benchReference(n, "XH6591N"),
      provider: "estimate",
    },
    {
      label: "index hit: the unit's certificate",
      tag: "DF3802F",
      reference: (n: number) => benchReference(1 + n * Math.max(1, Math.floor(ROWS / CREATES / 2)), "DF3802F"),
      provider: "index:cat-icaen",
    },
    {
      label: "index miss: then ICAEN asked (nothing registered)",
      tag: "DF3802G",
      reference: (n: number) => benchReference(n, "DF3802G"),
      provider: "estimate",
    },
  ];
  const { keys } = await seedPartnerKeys(url, Math.ceil((CREATES * (scenarios.length + 1)) / 90), "live");
  const port = await freePort();
  const env = {
    DATABASE_URL: url,
    PORT: String(port),
    FINCA_WORKERS: "0",
    CATASTRO_BASE_URL: registersUrl,
    CEE_CATALONIA_BASE_URL: registersUrl,
  };
  const server = await startServer("scripts/serve-api.ts", env, `http://127.0.0.1:${port}${READY_PATH}`);
  const results: Record<string, LoadResult & { providers: Record<string, number> }> = {};
  let sent = 0;
  try {
    const run = async (reference: (n: number) => string, count: number) => {
      const providers: Record<string, number> = {};
      const first = sent;
      sent += count;
      const result = await load({
        url: `http://127.0.0.1:${port}`,
        seconds: 3600,
        concurrency: 4,
        stopAfter: count,
        request: (n) => ({
          method: "POST",
          path: CREATE_PATH,
          headers: { "Content-Type": "application/json", "X-API-Key": keys[Math.floor((first + n) / 90)]! },
          body: JSON.stringify({ cadastral_reference: reference(n) }),
        }),
        onResponse: (_n, status, body) => {
          const provider =
            status === 201 ? (JSON.parse(body).enrichment?.energy_certificate?.provider ?? "none") : `HTTP ${status}`;
          providers[provider] = (providers[provider] ?? 0) + 1;
        },
      });
      return { ...result, providers };
    };
    await run((n) => benchReference(n, "XH6591P"), Math.min(500, CREATES)); // warm-up
    for (const scenario of scenarios) {
      results[scenario.label] = await run(scenario.reference, CREATES);
      const r = results[scenario.label]!;
      console.log(
        `${scenario.label}: p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.perSecond}/s, providers ${JSON.stringify(r.providers)} (expected ${scenario.provider})`,
      );
    }
  } finally {
    await stopGroup(server);
    registers.close();
  }
  const baseline = results[scenarios[0]!.label]!;
  const steps = await certificateStepMs(db);
  return Object.fromEntries(
    scenarios.map(({ label, tag }) => {
      const r = results[label]!;
      const step = (steps.get(tag) ?? []).sort((x, y) => x - y);
      const certificateStepMs = {
        mean: round(step.reduce((sum, ms) => sum + ms, 0) / Math.max(1, step.length), 2),
        p50: percentile(step, 50),
        p99: percentile(step, 99),
      };
      return [
        label,
        {
          p50: r.p50,
          p99: r.p99,
          perSecond: r.perSecond,
          providers: r.providers,
          p50VsBaseline: round(r.p50 / baseline.p50, 2),
          certificateStepMs,
        },
      ];
    }),
  );
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
  await database.db.execute(
    sql.raw(`copy bench_copy from '${file}' with (format csv, header true, delimiter ';', encoding 'UTF8')`),
  );
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

  const creates = await createLatencies(created.url, database.db);

  const figures = {
    rows: ROWS,
    megabytes: round(bytes / 1e6),
    copy: { seconds: round(copySeconds, 2), rowsPerSecond: Math.round(ROWS / copySeconds) },
    import: {
      seconds: round(importSeconds, 2),
      rowsPerSecond: Math.round(ROWS / importSeconds),
      records: result.rows,
      skipped: result.skipped,
    },
    importVsCopy: round(importSeconds / copySeconds, 1),
    lookupMs: { p50: round(percentile(lookup, 50), 2), p99: round(percentile(lookup, 99), 2) },
    selectOneMs: { p50: round(percentile(roundTrip, 50), 2), p99: round(percentile(roundTrip, 99), 2) },
    creates,
  };
  console.log(JSON.stringify(figures, null, 2));
  console.log(`written to ${await writeResult("registers-import", figures)}`);
} finally {
  await database.close();
  await created.drop();
  await rm(file, { force: true });
}
