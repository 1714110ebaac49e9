// Register index tests: fixtures by dataset, and files written on the fly for variations of them.
import { readdirSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { datasetById, importDataset, localFile, type Dataset } from "@/lib/registers";
import type { Db } from "@/lib/db";
import type { Property } from "@/lib/domain";
import { expect } from "vitest";
import { post, type TestApp } from "../support/app";

export const FIXTURES = path.join(process.cwd(), "lib/registers/datasets/fixtures");
/** A dataset's fixture, whatever its format (`<id>.csv`, `.tsv`, `.xlsx`, `.xml`). */
export function fixture(id: string): string {
  const file = readdirSync(FIXTURES).find((name) => name.slice(0, name.lastIndexOf(".")) === id);
  if (!file) throw new Error(`no fixture for ${id} in ${FIXTURES}`);
  return path.join(FIXTURES, file);
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
