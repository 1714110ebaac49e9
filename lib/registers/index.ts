// The local register index: open certificate and inspection datasets, imported and refreshed,
// looked up by cadastral reference before the live registries (see docs/registers.md), and
// the region table everything about a community is derived from.
export type { Dataset, FormatEvidence } from "./datasets";
export { importDataset, type ImportFile, type ImportProgress, type ImportResult } from "./import";
export { inspectFile, SAMPLES, type FileInspection } from "./inspect";
export { localFile, remoteFile } from "./files";
export { registerIndex } from "./lookup";
export { importCadastre } from "./cadastre-import";
export { CATASTRO_DOWNLOAD_HOSTS, cadastreDownloads } from "./catastro-inspire/download";
export { cadastreIndex } from "./cadastre-lookup";
export type { CopyResult } from "./cadastre-copies";
export { RegisterFileError } from "./read-error";
export { listDatasets, type DatasetStatus } from "./status";
export {
  importFromUrls,
  refreshDatasets,
  refreshPlan,
  refreshSettings,
  requestRefresh,
  type RefreshJob,
  type RefreshOutcome,
  type RefreshSettings,
} from "./refresh";
export { coverage, FORAL_NOTE } from "./coverage";
export { budgetOf, DEFAULT_REGISTER_RATES, registerBudgets, registerRates } from "./budgets";
export { lastingOverrides, readOverrides } from "./overrides";
export { describeLines, describeSkips, SKIP_REASONS, type LineCounts, type Skips } from "./skips";
export type { ColumnOverrides } from "./columns";
export {
  checkTargets,
  COPY_SOURCES,
  copyRegister,
  DATASETS,
  datasetById,
  datasetRegion,
  datasetRegister,
  LIVE_REGISTERS,
  liveProviders,
  liveRegisters,
  populationByCertificateEvidence,
  REGIONS,
  REGISTERS,
  type Region,
} from "./regions";
export type { CopySource, Licence, LiveRegister, Register, RegisterSettings } from "./register";
export { registerSettings } from "./settings";
