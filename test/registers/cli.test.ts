// `finca registers …` as operators run it (node with tsx's loader), on a fresh PGlite folder.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startReplayServer, type ReplayServer } from "@/lib/enrichment/sources/testing/replay-server";
import { NEVER_MS } from "../support/bounds";
import { runNode, stopAll } from "../support/processes";
import { fixture } from "./support";

let dir = "";
let server: ReplayServer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "finca-registers-cli-"));
  server = await startReplayServer();
  server.on(/rioja\.csv/, { body: await readFile(fixture("rio-larioja"), "latin1"), contentType: "text/csv; charset=utf-8" });
  server.on(/missing\.csv/, { status: 404, body: "not here", contentType: "text/plain" });
});
afterEach(stopAll);
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const finca = (...args: string[]) => runNode("scripts/finca.ts", ["registers", ...args], { env: { FINCA_DATA_DIR: dir, DATABASE_URL: undefined }, timeoutMs: NEVER_MS });

describe.sequential("finca registers", () => {
  it("import --file reads a dataset and says what it kept", async () => {
    const run = await finca("import", "cat-icaen", "--file", fixture("cat-icaen"), "--as-of", "2026-11-01");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual([
      "cat-icaen: 6 records (2 rows skipped), as of 2026-11-01",
      `  rows without a usable cadastral reference: 1 (${fixture("cat-icaen")} line 6 column "REFERENCIA CADASTRAL")`,
      `  rows without an A-G rating: 1 (${fixture("cat-icaen")} line 7 column "Qualificació de consum d'energia primaria no renovable")`,
    ]);
  });

  it("import --url downloads it, as of today", async () => {
    const run = await finca("import", "rio-larioja", "--url", `${server.url}/rioja.csv`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`rio-larioja: 5 records (2 rows skipped), as of ${new Date().toISOString().slice(0, 10)}`);
  });

  it("a file that is not the dataset's fails naming file and line, and list keeps the previous copy with the error", async () => {
    const run = await finca("import", "cat-icaen", "--file", fixture("val-gva"));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${fixture("val-gva")}: line 1: the header lacks the columns`);
    const list = (await finca("list")).stdout;
    expect(list).toMatch(/'cat-icaen'\s*│ 'Cataluña'\s*│ 'confirmed'\s*│ 6\s*│ 2\s*│ '2026-11-01'.*the header lacks/);
    expect(list).toContain(`cat-icaen left out:\n  rows without a usable cadastral reference: 1 (${fixture("cat-icaen")} line 6`);
  });

  it("a failed download names the URL and its status", async () => {
    const run = await finca("import", "rio-larioja", "--url", `${server.url}/missing.csv`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("missing.csv: HTTP 404");
  });

  it("check reports each live register and exits 1 when one cannot be read", async () => {
    const nowhere = "http://127.0.0.1:9";
    const run = await runNode("scripts/finca.ts", ["registers", "check"], {
      env: { FINCA_DATA_DIR: dir, DATABASE_URL: undefined, CATASTRO_BASE_URL: nowhere, CEE_CATALONIA_BASE_URL: nowhere, CEE_VALENCIA_BASE_URL: nowhere, CEE_ARAGON_BASE_URL: nowhere, ITE_VALENCIA_BASE_URL: nowhere },
      timeoutMs: NEVER_MS,
    });
    expect(run.code).toBe(1);
    for (const register of ["catastro-ovc", "icaen-socrata", "gva-wfs", "aragon-gaodcore", "gva-gesiee"]) expect(run.stdout).toMatch(new RegExp(`'${register}'.*│ false +│ false`));
  });

  it("usage errors exit 2", async () => {
    expect((await finca("import", "nowhere", "--file", "x")).code).toBe(2);
    expect((await finca("import", "cat-icaen")).stderr).toContain("--file <path> (one or more) or --url <url>");
  });
});
