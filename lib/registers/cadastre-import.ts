// One entry point for the cadastre index's imports (CLI, operations): which importer, and which
// municipality the files are of when the operator does not say (a CAT file's records name it; an
// INSPIRE download's file name does).
import type { CadastreSource } from "@/lib/domain";
import type { Db } from "@/lib/db";
import type { CopyResult } from "./cadastre-copies";
import { catMunicipality, importCat } from "./catastro-cat/import";
import { importInspire, inspireMunicipality } from "./catastro-inspire/import";
import type { ImportFile } from "./import";

export async function importCadastre(
  db: Db,
  source: CadastreSource,
  files: readonly ImportFile[],
  municipality?: string,
): Promise<CopyResult> {
  if (!files.length) throw new Error(`no file given for ${source}`);
  if (source === "catastro-cat") return importCat(db, municipality ?? (await catMunicipality(files[0]!)), files);
  const named = municipality ?? inspireMunicipality(files[0]!.name);
  if (!named)
    throw new Error(
      "the municipality is not in the file name (A.ES.SDGC.<CP|BU|AD>.<code>…): give it with --municipality <5 digits>",
    );
  return importInspire(db, named, files);
}
