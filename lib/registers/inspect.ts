// `registers import --dry-run`: reads a dataset's files as an import would, writing nothing, and
// tells what it found in each: format, encoding, delimiter, sheet or element, the header, each
// expected column found or missing (with near matches), a few parsed records, and what would be
// left out by reason. Missing columns stop a file's reading there (an import would refuse it).
import type { Dataset } from "./datasets";
import type { ColumnOverrides } from "./columns";
import { emptyTotals, readRecords, type ImportFile, type ReadTotals, type SourcedRecord } from "./import";
import type { FileShape } from "./shape";
import { RegisterFileError } from "./read-error";

/** How many parsed records a dry run shows per file. */
export const SAMPLES = 5;

export interface FileInspection {
  file: string;
  /** Null when the file could not be opened at all (then `error`). */
  shape: FileShape | null;
  /** The first records, as the index would hold them. */
  samples: SourcedRecord[];
  records: number;
  totals: ReadTotals;
  /** Why the file would be refused (missing columns, not a workbook…), or null. */
  error: string | null;
}

export async function inspectFile(
  dataset: Dataset,
  file: ImportFile,
  columns: ColumnOverrides,
): Promise<FileInspection> {
  const inspection: FileInspection = {
    file: file.name,
    shape: null,
    samples: [],
    records: 0,
    totals: emptyTotals(),
    error: null,
  };
  try {
    for await (const records of readRecords(
      dataset,
      file,
      columns,
      inspection.totals,
      (shape) => (inspection.shape = shape),
    )) {
      inspection.records += records.length;
      inspection.samples.push(...records.slice(0, SAMPLES - inspection.samples.length));
    }
  } catch (error) {
    if (!(error instanceof RegisterFileError)) throw error;
    inspection.error = error.message;
  }
  return inspection;
}
