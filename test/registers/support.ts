// Register index tests: fixtures by dataset, and files written on the fly for variations of them.
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { datasetById, importDataset, localFile, type Dataset } from "@/lib/registers";
import type { Db } from "@/lib/db";
import type { Property } from "@/lib/domain";
import { expect } from "vitest";
import { startReplayServer, type ReplayServer } from "@/lib/enrichment/sources/testing/replay-server";
import { createTestApp, newPartnerKey, post, type TestApp } from "../support/app";

export const FIXTURES = path.join(process.cwd(), "lib/registers/datasets/fixtures");
const REGISTERS = path.join(process.cwd(), "lib/registers");
/** Where fixtures are: the shared folder, and the `fixtures` folder of a register's own module. */
const fixtureFolders = () => [
  FIXTURES,
  ...readdirSync(REGISTERS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(REGISTERS, d.name, "fixtures")))
    .map((d) => path.join(REGISTERS, d.name, "fixtures")),
];
/** A dataset's fixture, whatever its format (`<id>.csv`, `.tsv`, `.xlsx`, `.xml`). */
export function fixture(id: string): string {
  for (const folder of fixtureFolders()) {
    const file = readdirSync(folder).find((name) => name.slice(0, name.lastIndexOf(".")) === id);
    if (file) return path.join(folder, file);
  }
  throw new Error(`no fixture for ${id} in ${fixtureFolders().join(", ")}`);
}

export function dataset(id: string): Dataset {
  const found = datasetById(id);
  if (!found) throw new Error(`no dataset ${id}`);
  return found;
}

/** A file with `content` (a fixture's bytes plus or minus some lines) in a fresh folder. */
export async function fileWith(name: string, content: Buffer | string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), "finca-registers-")), name);
  await writeFile(file, content);
  return file;
}

export const fixtureBytes = (id: string) => readFile(fixture(id));

export const importFixture = (db: Db, id: string, asOf = "2026-11-01") =>
  importDataset(db, dataset(id), [localFile(fixture(id))], { asOf });

/** A create through the API's handler with `key`, which must answer 201: the Property. */
export async function createProperty(t: TestApp, key: string, reference: string): Promise<Property> {
  const res = await t.api.createProperty(post("/properties", { cadastral_reference: reference }, { "X-API-Key": key }));
  expect(res.status).toBe(201);
  return (await res.json()) as Property;
}

export interface ReplayedCatastro {
  server: ReplayServer;
  t: TestApp;
  /** A live key of a new partner. */
  key: string;
  close(): Promise<void>;
}

/** A test app whose live Catastro answers every Consulta_DNPRC with `dnprc` and no coordinates. */
export async function replayedCatastro(dnprc: string): Promise<ReplayedCatastro> {
  const server = await startReplayServer();
  server.on(/Consulta_DNPRC/, { body: dnprc });
  server.on(/Consulta_CPMRC/, { status: 503, body: "unavailable", contentType: "text/plain" });
  const t = await createTestApp({ env: { CATASTRO_BASE_URL: server.url } });
  const key = (await newPartnerKey(t.app, "live")).key;
  return {
    server,
    t,
    key,
    async close() {
      await t.close();
      await server.close();
    },
  };
}
