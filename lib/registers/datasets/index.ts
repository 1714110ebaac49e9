// What every dataset of the register index is (./types.ts), the certificate datasets' one reader
// (./certificates.ts) and the citations several share (./evidence.ts); each dataset is in its
// register's module (../<id>/).
export type { Dataset, FormatEvidence, RecordDraft, Row, RowResult, RowSkip } from "./types";
