// The datasets the register index can import, one module each; the region table
// (../regions.ts) says which community each belongs to.
export { andalucia } from "./andalucia";
export { aragon } from "./aragon";
export { asturias } from "./asturias";
export { canarias } from "./canarias";
export { cantabria } from "./cantabria";
export { castillaLaMancha } from "./castilla-la-mancha";
export { castillaLeon } from "./castilla-leon";
export { catalonia } from "./catalonia";
export { galicia } from "./galicia";
export { laRioja } from "./la-rioja";
export { madridIte } from "./madrid-ite";
export { valencia } from "./valencia";
export type { Dataset, FormatEvidence, RecordDraft, Row, RowResult, RowSkip } from "./types";
