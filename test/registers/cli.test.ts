// `finca registers …` as operators run it (node with tsx's loader), on a fresh data folder (its embedded PostgreSQL).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startReplayServer, type ReplayServer } from "@/lib/enrichment/sources/testing/replay-server";
import { NEVER_MS } from "../support/bounds";
import { runNode, stopAll } from "../support/processes";
import { fileWith, fixture } from "./support";

let dir = "";
let server: ReplayServer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "finca-registers-cli-"));
  server = await startReplayServer();
  server.on(/rioja\.csv/, {
    body: await readFile(fixture("rio-larioja"), "latin1"),
    contentType: "text/csv; charset=utf-8",
  });
  server.on(/missing\.csv/, { status: 404, body: "not here", contentType: "text/plain" });
});
afterEach(stopAll);
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const finca = (...args: string[]) =>
  runNode("scripts/finca.ts", ["registers", ...args], {
    env: {
      FINCA_DATA_DIR: dir,
      DATABASE_URL: undefined,
      REGISTER_COLUMNS_DIR: path.join(dir, "columns"),
      // The replay server is plain http on loopback: what production refuses.
      FINCA_REGISTERS_ALLOW_PRIVATE: "1",
    },
    timeoutMs: NEVER_MS,
  });

describe.sequential("finca registers", () => {
  it("import --file reads a dataset and says what it kept", async () => {
    const run = await finca("import", "cat-icaen", "--file", fixture("cat-icaen"), "--as-of", "2026-11-01");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual([
      "cat-icaen: 6 records (2 rows skipped), as of 2026-11-01 (publisher's date)",
      "  7 lines: 1 header, 6 in rows, 0 in malformed records, 0 blank",
      `  rows without a usable cadastral reference: 1 (${fixture("cat-icaen")} line 6 column "REFERENCIA CADASTRAL")`,
      `  rows without an A-G rating: 1 (${fixture("cat-icaen")} line 7 column ` +
        `"Qualificació de consum d'energia primaria no renovable")`,
    ]);
  });

  it("import --url downloads it, never as of the download day", async () => {
    // La Rioja's file gives only the end of validity: no record tells its own date.
    const run = await finca("import", "rio-larioja", "--url", `${server.url}/rioja.csv`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("rio-larioja: 5 records (2 rows skipped), as of an unknown date");
  });

  it("a file that is not the dataset's fails naming file and line, and list keeps the previous copy with the error", async () => {
    const run = await finca("import", "cat-icaen", "--file", fixture("val-gva"));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${fixture("val-gva")}: line 1: the header lacks the columns`);
    const list = (await finca("list")).stdout;
    expect(list).toMatch(/'cat-icaen'\s*│ 'Cataluña'\s*│ 'confirmed'\s*│ 6\s*│ 2\s*│ '2026-11-01'.*the header lacks/);
    const reference = `rows without a usable cadastral reference: 1 (${fixture("cat-icaen")} line 6`;
    expect(list).toContain(`cat-icaen left out:\n  ${reference}`);
  });

  it("a failed download names the URL and its status", async () => {
    const run = await finca("import", "rio-larioja", "--url", `${server.url}/missing.csv`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("missing.csv: HTTP 404");
  });

  it("check reports each live register and exits 1 when one cannot be read", async () => {
    const nowhere = "http://127.0.0.1:9";
    const run = await runNode("scripts/finca.ts", ["registers", "check"], {
      env: {
        FINCA_DATA_DIR: dir,
        DATABASE_URL: undefined,
        CATASTRO_BASE_URL: nowhere,
        CEE_CATALONIA_BASE_URL: nowhere,
        CEE_VALENCIA_BASE_URL: nowhere,
        CEE_ARAGON_BASE_URL: nowhere,
        ITE_VALENCIA_BASE_URL: nowhere,
      },
      timeoutMs: NEVER_MS,
    });
    expect(run.code).toBe(1);
    for (const register of ["catastro-ovc", "icaen-socrata", "gva-wfs", "aragon-gaodcore", "gva-gesiee"])
      expect(run.stdout).toMatch(new RegExp(`'${register}'.*│ false +│ false`));
  });

  it("import --dry-run tells what a file holds and writes nothing", async () => {
    const run = await finca("import", "ara-gaodcore", "--file", fixture("ara-gaodcore"), "--dry-run");
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    expect(out).toContain(`ara-gaodcore: ${fixture("ara-gaodcore")} (dry run: nothing written)`);
    expect(out).toContain('  format   CSV, delimiter ",", encoding UTF-8');
    expect(out).toContain('  header   line 1: "numcert", "refcatastral", "fec_emision", "fec_expira"');
    expect(out).toMatch(/ {4}validUntil {7}"fec_expira" → found as "fec_expira"/);
    expect(out.match(/^ {2}sample {3}line /gm)).toHaveLength(5);
    const sample = '{"rating":"E","emissionsRating":"E","primaryEnergyKwhM2Year":201.4';
    expect(out).toContain(`  sample   line 2: certificate 7541901XM8174S0001 ${sample}`);
    expect(out).toContain("  read     6 rows: 5 records, 2 rows would be left out");
    expect(out).toContain("  lines    7 lines: 1 header, 6 in rows, 0 in malformed records, 0 blank");
    const rating = `1 (${fixture("ara-gaodcore")} line 7 column "clasificacion_consumo")`;
    expect(out).toContain(`  left out rows without an A-G rating: ${rating}`);
    expect((await finca("list")).stdout).toMatch(/'ara-gaodcore'\s*│ 'Aragón'\s*│ 'confirmed'\s*│ 0 /);
  });

  it("import --dry-run on a file missing a column names it, with its near matches, and exits 1", async () => {
    const text = await readFile(fixture("ara-gaodcore"), "utf8");
    const renamed = await fileWith("renamed.csv", text.replace("refcatastral", "RefCatastral"));
    const run = await finca("import", "ara-gaodcore", "--file", renamed, "--dry-run");
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/ {4}reference {8}"refcatastral" → MISSING \(near: "RefCatastral"\)/);
    const lacks = 'the header lacks the column "refcatastral" (near: "RefCatastral") that ara-gaodcore needs';
    expect(run.stdout).toContain(`  REFUSED  ${renamed}: line 1: ${lacks}`);
  });

  it("column overrides: --columns map.json, the folder for every import; an unexpected name refused", async () => {
    const renamed = await fileWith("renamed.csv", "REF_CATASTRAL;LETRA\n9872023VH5797S0001QW;B\n");
    const names = { REF_CATASTRAL: "REF_CATASTRAL", CALIF_CONSUMO_NORENOV: "LETRA" };
    const map = await fileWith("map.json", JSON.stringify(names));
    const once = await finca("import", "rio-larioja", "--file", renamed, "--columns", map, "--as-of", "2026-11-02");
    expect(once.code, once.stderr).toBe(0);
    expect(once.stdout.trim()).toBe(
      "rio-larioja: 1 records (0 rows skipped), as of 2026-11-02 (publisher's date)\n  2 lines: 1 header, 1 in rows, 0 in malformed records, 0 blank",
    );
    await mkdir(path.join(dir, "columns"), { recursive: true });
    await writeFile(path.join(dir, "columns", "rio-larioja.json"), JSON.stringify({ CALIF_CONSUMO_NORENOV: "LETRA" }));
    const lasting = await finca("import", "rio-larioja", "--file", renamed, "--dry-run");
    expect(lasting.code, lasting.stdout).toBe(0);
    expect(lasting.stdout).toMatch(/rating {11}"LETRA" → found as "LETRA" \[override\]/);
    const misspelt = await fileWith("typo.json", '{"REF_CATASTRALL": "X"}');
    const typo = await finca("import", "rio-larioja", "--file", renamed, "--columns", misspelt);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('rio-larioja expects no column "REF_CATASTRALL"');
  });

  it("usage errors exit 2", async () => {
    expect((await finca("import", "nowhere", "--file", "x")).code).toBe(2);
    expect((await finca("import", "cat-icaen")).stderr).toContain("--file <path> (one or more) or --url <url>");
  });

  it("imports Catastro's bulk files into the cadastre index, one municipality's copy, and lists it", async () => {
    const cat = path.join(process.cwd(), "lib/registers/catastro-cat/fixtures/28900-sample.CAT");
    const run = await finca("import", "catastro-cat", "--file", cat);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual([
      "catastro-cat 28900: 2 cat_parcel, 2 construction_unit, 3 construction, 3 unit; " +
        "as of 2026-03-15 (the file's header record (01): its generation date)",
      `  left out, bad check letters: 1 (${cat} line 12)`,
      `  left out, record 16 not read: 1 (${cat} line 13)`,
    ]);
    const gml = path.join(process.cwd(), "lib/registers/catastro-inspire/fixtures/28900.building.gml");
    const unnamed = await finca("import", "catastro-inspire", "--file", gml);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain("give it with --municipality <5 digits>");
    expect((await finca("import", "catastro-inspire", "--file", gml, "--municipality", "28900")).code).toBe(0);
    // Each copy with the evidence its source's format rests on, as the datasets are listed (lib/registers/catastro-*).
    const list = await finca("list");
    expect(list.stdout).toMatch(/catastro-cat'\s*│\s*'28900'\s*│\s*'confirmed'\s*│\s*10\s*│\s*'2026-03-15'/);
    expect(list.stdout).toMatch(/catastro-inspire'\s*│\s*'28900'\s*│\s*'single_source'\s*│\s*2\s*│\s*'2015-11-24'/);
  });

  it("import catastro-inspire --url takes Catastro's hosts only: another is refused before it is asked", async () => {
    // Private addresses are allowed in this run (FINCA_REGISTERS_ALLOW_PRIVATE): the host is refused all the same.
    const url = `${server.url}/INSPIRE/Buildings/28/28900-MADRID/A.ES.SDGC.BU.28900.zip`;
    const run = await finca("import", "catastro-inspire", "--url", url);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${new URL(url).host} is not one of Catastro's publishing hosts`);
    expect(run.stderr).toContain("www.catastro.hacienda.gob.es");
    expect(server.count(/A\.ES\.SDGC/)).toBe(0);
  });
});
