// The datasets the register index can import, one module each.
import { andalucia } from "./andalucia";
import { aragon } from "./aragon";
import { asturias } from "./asturias";
import { canarias } from "./canarias";
import { cantabria } from "./cantabria";
import { castillaLaMancha } from "./castilla-la-mancha";
import { castillaLeon } from "./castilla-leon";
import { catalonia } from "./catalonia";
import { galicia } from "./galicia";
import { laRioja } from "./la-rioja";
import { madridIte } from "./madrid-ite";
import { valencia } from "./valencia";
import type { Dataset } from "./types";

export type { Dataset, RecordDraft, Row, RowResult } from "./types";

export const DATASETS: readonly Dataset[] = [catalonia, valencia, castillaLeon, aragon, canarias, laRioja, andalucia, castillaLaMancha, asturias, cantabria, galicia, madridIte];

export function datasetById(id: string): Dataset | null {
  return DATASETS.find((d) => d.id === id) ?? null;
}
