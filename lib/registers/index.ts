// The local register index: open certificate and inspection datasets, imported and refreshed,
// looked up by cadastral reference before the live registries (see README "Register index").
export { DATASETS, datasetById, type Dataset } from "./datasets";
export { importDataset, type ImportFile, type ImportProgress, type ImportResult } from "./import";
export { localFile, remoteFile } from "./files";
export { registerIndex } from "./lookup";
export { RegisterFileError } from "./read-error";
export { listDatasets, type DatasetStatus } from "./status";
export { importFromUrls, refreshDatasets, refreshPlan, requestRefresh, type RefreshJob, type RefreshOutcome, type RefreshSettings } from "./refresh";
export { coverage, FORAL_NOTE } from "./coverage";
export { budgetOf, DEFAULT_REGISTER_RATES, registerBudgets, registerRates } from "./budgets";
