// `finca batch`: the CLI as a partner runs it, against the lean server: a CSV and a workbook
// submitted, followed to the end (plain progress lines off a terminal), results written; status
// and results of a batch later; refusals said plainly.
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkLetters, checkReference, unitNumber } from "@/lib/cadastral-reference";
import { schema } from "@/lib/db";
import { scenarioOf } from "@/lib/enrichment/sources/sandbox";
import { createPartnerApiServer } from "@/lib/partner-api/node-server";
import { createTestApp, newPartnerKey, type TestApp } from "./support/app";
import { NEVER_MS } from "./support/bounds";
import { eventually } from "./support/wait";
import { runNode, stopAll } from "./support/processes";
import { PARTNER_HELP } from "../packages/sdk/src/cli";
import { HELP_COLUMN, HELP_WIDTH } from "../packages/sdk/src/cli/help";
// @ts-expect-error: a plain ES module of the SDK's build, without types
import { buildCli } from "../packages/sdk/build-cli.mjs";

let t: TestApp;
let server: Server;
let base = "";
let dir = "";
let key = "";
beforeAll(async () => {
  t = await createTestApp({ workers: true });
  server = createPartnerApiServer(t.api);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(path.join(tmpdir(), "finca-cli-batch-"));
  key = (await newPartnerKey(t.app)).key;
});
afterEach(stopAll);
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const unit = (n: number) => {
  const parcel = `${String(8100000 + n).padStart(7, "0")}YJ0624N`;
  return parcel + "0001" + checkLetters(parcel + "0001");
};
const finca = (args: string[], env: Record<string, string | undefined> = {}) =>
  runNode("scripts/finca.ts", ["batch", ...args], {
    env: { FINCA_API_KEY: key, FINCA_URL: base, ...env },
    timeoutMs: NEVER_MS,
  });

describe.sequential("finca batch", () => {
  let id = "";

  it("submit uploads a CSV, reports progress and writes the results when the batch completes", async () => {
    const file = path.join(dir, "book.csv");
    await writeFile(file, `refcat,external_id\n${unit(1)},a\nnonsense,b\n${unit(2)},c\n`);
    const run = await finca(["submit", "--file", file]);
    expect(run.code, run.stderr).toBe(0);
    id = /batch ([0-9a-f-]{36})/.exec(run.stdout)![1]!;
    expect(run.stdout).toMatch(/Submitted: batch .* \(3 rows, 1 invalid\)/);
    expect(run.stdout).toMatch(/Completed: 3\/3 final \(2 enriched, 1 invalid\)/);
    const results = await readFile(path.join(dir, "book.results.csv"), "utf8");
    expect(
      results
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .slice(1, 4)
        .map((l) => l.split(",").slice(0, 4).join(",")),
    ).toEqual([`1,a,${unit(1)},enriched`, "2,b,nonsense,invalid", `3,c,${unit(2)},enriched`]);
    // The same file again answers the batch it created (its Idempotency-Key is the file's).
    const again = await finca(["submit", "--file", file]);
    expect(again.stdout).toContain(`Already submitted: batch ${id}`);
  });

  it("submit reads a workbook's first sheet; results as NDJSON", async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet("Book").addRows([
      ["cadastral_reference", "external_id"],
      [unit(3), "x"],
    ]);
    const file = path.join(dir, "loans.xlsx");
    await book.xlsx.writeFile(file);
    const run = await finca(["submit", "--file", file, "--format", "ndjson", "--key", key]);
    expect(run.code, run.stderr).toBe(0);
    const lines = (await readFile(path.join(dir, "loans.results.ndjson"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toMatchObject([
      { item: { line: 1, external_id: "x", status: "enriched" }, property: { cadastral_reference: unit(3) } },
    ]);
  });

  it("submit sends a workbook as it is: its header below a title, its columns named by flags", async () => {
    const book = new ExcelJS.Workbook();
    book
      .addWorksheet("Book")
      .addRows([["Cartera hipotecaria, noviembre"], ["Ref. catastral", "Préstamo", "Saldo"], [unit(4), "P-4", 1000]]);
    const file = path.join(dir, "titled.xlsx");
    await book.xlsx.writeFile(file);
    // Without the flags: the server's words, listing the accepted names.
    const refused = await finca(["submit", "--file", file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "the server answered 422: No row among the first 20 names a reference column: none of cadastral_reference, referencia_catastral, refcat (any case)",
    );
    expect(refused.stderr).toContain('(header is ["Ref. catastral","Préstamo","Saldo"]: none of');
    const run = await finca([
      "submit",
      "--file",
      file,
      "--reference-column",
      "Ref. catastral",
      "--external-id-column",
      "prestamo",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Submitted: batch .* \(1 rows?, 0 invalid\)/);
    const lines = (await readFile(path.join(dir, "titled.results.csv"), "utf8")).replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[1]!.split(",").slice(0, 4).join(",")).toBe(`1,P-4,${unit(4)},enriched`);
    // It went as a workbook, not converted to CSV on the way.
    const logged = await eventually("the submission's request log", async () => {
      const rows = await t.app.db
        .select({ headers: schema.requestLogs.requestHeaders, body: schema.requestLogs.requestBody })
        .from(schema.requestLogs)
        .where(and(eq(schema.requestLogs.method, "POST"), eq(schema.requestLogs.status, 202)));
      return rows.find((r) => r.headers?.["content-type"]?.includes("spreadsheetml")) ?? null;
    });
    expect(logged.headers!["content-type"]).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(logged.body).toMatch(/^\(binary, \d+ bytes\)$/);
  });

  it("status and results of a batch later", async () => {
    const status = await finca(["status", id]);
    expect(status.stdout).toMatch(/completed: 3\/3 final/);
    const out = path.join(dir, "later.csv");
    expect((await finca(["results", id, "--out", out])).stdout).toContain(`Results: ${out}`);
    expect((await readFile(out, "utf8")).split("\r\n")).toHaveLength(5);
    const xlsx = path.join(dir, "later.xlsx");
    expect((await finca(["results", id, "--format", "xlsx", "--out", xlsx])).stdout).toContain(`Results: ${xlsx}`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(xlsx);
    const rows = book.worksheets[0]!.getSheetValues().slice(1) as unknown[][];
    expect(rows.map((r) => r.slice(1, 3))).toEqual([
      ["line", "external_id"],
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ]);
  });

  it("says what the server refused, and what the command lacks", async () => {
    const missing = await finca(["status", "6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("the server answered 404: No batch with this id");
    const empty = path.join(dir, "empty.csv");
    await writeFile(empty, "refcat\n");
    const refused = await finca(["submit", "--file", empty]);
    expect(refused.stderr).toMatch(/the server answered 422: The file holds no data rows/);
    // No key anywhere (and no finca login: a config folder that does not exist).
    const noKey = await finca(["status", id], { FINCA_API_KEY: undefined, XDG_CONFIG_HOME: path.join(dir, "none") });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("--key (or FINCA_API_KEY, or finca login) is required");
    // A local file that is not there is said to be missing; the server is not blamed for it.
    const gone = path.join(dir, "gone.csv");
    const noFile = await finca(["submit", "--file", gone]);
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toContain(`finca: no such file or folder: ${gone}`);
    expect(noFile.stderr).not.toContain("could not reach");
    const folder = await finca(["submit", "--file", dir]);
    expect(folder.stderr).toContain(`${dir} is a folder, not a file`);
    const out = path.join(dir, "missing", "results.csv");
    const noFolder = await finca(["results", id, "--out", out]);
    expect(noFolder.code).toBe(1);
    expect(noFolder.stderr).toContain(`finca: no such file or folder: ${out}`);
  });
});

describe("finca sandbox refs", () => {
  const sandbox = (args: string[]) =>
    runNode("scripts/finca.ts", ["sandbox", "refs", ...args], { timeoutMs: NEVER_MS });
  const references = (csv: string) => {
    const [header, ...rows] = csv.trimEnd().split("\r\n");
    expect(header).toBe("cadastral_reference,external_id");
    return rows.map((row, i) => {
      const [reference, external] = row.split(",");
      expect(external).toBe(`sandbox-${i + 1}`);
      expect(checkReference(reference!)).toMatchObject({ ok: true, length: 20 });
      return reference!;
    });
  };

  it("writes valid references of one scenario, or ordinary ones, on new parcels; the same again with --seed", async () => {
    const run = await sandbox(["--count", "5", "--scenario", "9300", "--seed", "s1"]);
    expect(run.code, run.stderr).toBe(0);
    const refs = references(run.stdout);
    expect(refs.map(scenarioOf)).toEqual(Array(5).fill("9300"));
    expect(new Set(refs.map((r) => r.slice(0, 14))).size).toBe(5);
    expect((await sandbox(["--count", "5", "--scenario", "9300", "--seed", "s1"])).stdout).toBe(run.stdout);
    const ordinary = references((await sandbox(["--count", "50"])).stdout);
    expect(ordinary.filter((r) => scenarioOf(r) !== null || unitNumber(r)!.startsWith("9"))).toEqual([]);
    expect(references((await sandbox(["--count", "50"])).stdout)).not.toEqual(ordinary);
  });

  it("writes a workbook the API takes as a portfolio as it is", async () => {
    const file = path.join(dir, "sandbox.xlsx");
    const run = await sandbox(["--count", "3", "--format", "xlsx", "--out", file]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`3 references written to ${file}`);
    const submitted = await finca(["submit", "--file", file]);
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(submitted.stdout).toMatch(/Completed: 3\/3 final \(3 enriched\)/);
  });

  it("refuses what it cannot make", async () => {
    for (const [args, said] of [
      [["--count", "0"], "--count must be a whole number from 1 to 100,000"],
      [["--count", "2.5"], "--count must be"],
      [["--count", "2", "--scenario", "9500"], "--scenario must be one of 9100, 9200, 9300, 9404"],
      [["--count", "2", "--format", "ods"], "--format must be csv or xlsx"],
    ] as const) {
      const run = await sandbox([...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(said);
    }
  });
});

describe("finca as a partner installs it (@finca/sdk's bin)", () => {
  it("runs from the package alone: the bundle names only the package's dependencies", async () => {
    // The package as npm would unpack it, away from this repository; its dependencies resolvable.
    const pkg = path.join(dir, "installed");
    await mkdir(pkg, { recursive: true });
    await copyFile("packages/sdk/package.json", path.join(pkg, "package.json"));
    await symlink(path.resolve("node_modules"), path.join(pkg, "node_modules"), "dir");
    const manifest = JSON.parse(await readFile(path.join(pkg, "package.json"), "utf8"));
    expect(manifest.bin).toEqual({ finca: "dist/cli.mjs" });
    expect(manifest.files).toContain("dist");
    const bin = (await buildCli(path.join(pkg, manifest.bin.finca))) as string;

    const code = await readFile(bin, "utf8");
    const named = [...code.matchAll(/(?:from|import\()\s*"([^"]+)"/g)].map((m) => m[1]!);
    const packages = new Set(named.filter((n) => !n.startsWith("node:") && !builtinModules.includes(n)));
    const owners = [...packages].map((n) =>
      (n.startsWith("@") ? n.split("/").slice(0, 2) : n.split("/").slice(0, 1)).join("/"),
    );
    expect(owners.filter((o) => !(o in manifest.dependencies))).toEqual([]);
    expect(named.some((n) => n.startsWith("@/") || n.startsWith("."))).toBe(false);

    const help = await runNode(bin, ["--help"], { timeoutMs: NEVER_MS });
    expect(help.stdout).toMatch(/Usage: finca <command>/);
    expect(help.stdout).toContain("batch submit");
    expect(help.stdout).not.toContain("registers import");
    // Aligned: every command's usage at the margin, its description from one column, nothing wider.
    const commands = help.stdout
      .slice(help.stdout.indexOf("Commands:\n") + 10)
      .split("\n\n")[0]!
      .split("\n");
    const column = new RegExp(`^ {${HELP_COLUMN}}\\S`);
    for (const { usage } of PARTNER_HELP) {
      const at = commands.findIndex((l) => l.startsWith(`  ${usage}`));
      const line = commands[at]!;
      // The description beside the usage, from the column, or on the next line, from the column.
      if (line === `  ${usage}`) expect(commands[at + 1]).toMatch(column);
      else expect(" ".repeat(2 + usage.length) + line.slice(2 + usage.length)).toMatch(column);
    }
    const descriptions = commands.filter((l) => l.startsWith(" ".repeat(HELP_COLUMN)));
    expect(descriptions.filter((l) => l[HELP_COLUMN] === " " || l.length > HELP_WIDTH)).toEqual([]);
    // A workbook (read by the code bundled in) submitted and followed to the end.
    const book = new ExcelJS.Workbook();
    book.addWorksheet("Book").addRows([["cadastral_reference"], [unit(9)]]);
    const file = path.join(dir, "installed.xlsx");
    await book.xlsx.writeFile(file);
    const run = await runNode(bin, ["batch", "submit", "--file", file], {
      env: { FINCA_API_KEY: key, FINCA_URL: base },
      timeoutMs: NEVER_MS,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Completed: 1\/1 final \(1 enriched\)/);
    const unknown = await runNode(bin, ["keys", "list"], { timeoutMs: NEVER_MS });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command: keys");
  });
});
