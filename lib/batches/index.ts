// Portfolios: a batch of references accepted in one request, worked through in steps, read back.
export {
  cancelBatch,
  submitBatch,
  tooManyActiveBatches,
  type BatchesDeps,
  type BatchJob,
  type Submission,
} from "./accept";
export { runBatchStep } from "./step";
export { findItemsByExternalId, getBatch, listBatches, listItems, type FoundItem, type Page } from "./views";
export {
  fileFormat,
  fileLimitsOf,
  previewFile,
  previewUpload,
  readFile,
  readUpload,
  fileReaders,
  type FileFormat,
  type FileLimits,
  type Preview,
  type ReadContext,
  type ReadFile,
  type Upload,
  type UploadDeps,
  type FileReaders,
} from "./read";
export { MAX_JSON_ITEMS, MAX_TEXT, REFERENCE_HEADERS, type ItemInput } from "./items";
export {
  csvLines,
  exportResults,
  ndjsonLines,
  resultCells,
  resultsContentType,
  resultsStream,
  RESULT_COLUMNS,
  RESULTS_MEDIA_TYPES,
  type ResultsFormat,
} from "./results";
export { SAMPLE_HEADER, SAMPLE_ORDINARY, samplePortfolio, sampleRows } from "./sample";
