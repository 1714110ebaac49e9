// The datasets the register index can import, one module each.
import { aragon } from "./aragon";
import { canarias } from "./canarias";
import { castillaLeon } from "./castilla-leon";
import { catalonia } from "./catalonia";
import { laRioja } from "./la-rioja";
import { valencia } from "./valencia";
import type { Dataset } from "./types";

export type { Dataset, RecordDraft, Row, RowResult } from "./types";

export const DATASETS: readonly Dataset[] = [catalonia, valencia, castillaLeon, aragon, canarias, laRioja];

export function datasetById(id: string): Dataset | null {
  return DATASETS.find((d) => d.id === id) ?? null;
}
