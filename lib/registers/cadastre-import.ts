// One entry point for the cadastre index's imports (CLI, operations): the copy source's importer (the
// register modules' copies, ./regions.ts), and which municipality the files are of when the operator
// does not say (a CAT file's records name it; an INSPIRE download's file name does).
import type { CadastreSource } from "@/lib/domain";
import type { Db } from "@/lib/db";
import type { CopyResult } from "./cadastre-copies";
import type { ImportFile } from "./import";
import { COPY_SOURCES } from "./regions";

export async function importCadastre(
  db: Db,
  source: CadastreSource,
  files: readonly ImportFile[],
  municipality?: string,
): Promise<CopyResult> {
  const copy = COPY_SOURCES.find((c) => c.id === source);
  if (!copy) throw new Error(`no cadastre copy source ${source}`);
  if (!files.length) throw new Error(`no file given for ${source}`);
  const named = municipality ?? (await copy.municipalityOf(files[0]!));
  if (!named)
    throw new Error(
      "the municipality is not in the file name (A.ES.SDGC.<CP|BU|AD>.<code>…): give it with --municipality <5 digits>",
    );
  return copy.import(db, named, files);
}
