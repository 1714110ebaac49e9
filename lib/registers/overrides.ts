// Column overrides kept as files: `--columns map.json` for one import, and a folder
// (REGISTER_COLUMNS_DIR, default ./register-columns) holding `<dataset id>.json` for every import of
// that dataset, the scheduled refreshes included. Each maps the names a dataset expects to the
// names a file gives them: {"refcatastral": "REF_CATASTRAL"}.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { DomainError } from "@/lib/domain";
import type { Dataset } from "./datasets";
import { checkOverrides, type ColumnOverrides } from "./columns";

function parseOverrides(file: string, text: string, dataset: Dataset): ColumnOverrides {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new DomainError("validation_error", `${file}: not valid JSON`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new DomainError("validation_error", `${file}: must be a JSON object of column names`);
  checkOverrides(dataset, parsed as ColumnOverrides);
  return parsed as ColumnOverrides;
}

/** A `--columns` file: a JSON object of names to names, checked against the dataset's expected names. */
export async function readOverrides(file: string, dataset: Dataset): Promise<ColumnOverrides> {
  return parseOverrides(file, await readFile(file, "utf8"), dataset);
}

/** The folder's overrides for a dataset; none when it has no file. */
export async function lastingOverrides(dir: string, dataset: Dataset): Promise<ColumnOverrides> {
  const file = path.join(dir, `${dataset.id}.json`);
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  return text === null ? {} : parseOverrides(file, text, dataset);
}
