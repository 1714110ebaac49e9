// Refreshing datasets from their configured URLs: on the schedule (jobs/refresh-registers), from
// the admin console, or `registers import --url`. Downloads stream straight into the importer.
import type { Db, DbOrTx } from "@/lib/db";
import { DomainError, messageOf } from "@/lib/domain";
import { enqueue, QUEUES, type JobData, type Queue } from "@/lib/queue";
import { socrataHeaders } from "@/lib/enrichment/sources/registries/socrata";
import type { Dataset } from "./datasets";
import type { Config } from "@/lib/config";
import { remoteFile, type DownloadRules } from "./files";
import { importDataset, type ImportProgress, type ImportResult } from "./import";
import type { ColumnOverrides } from "./columns";
import { lastingOverrides } from "./overrides";
import { datasetById } from "./regions";

export interface RefreshSettings extends Omit<DownloadRules, "headers" | "resolver"> {
  /** REGISTER_URLS */
  urls: readonly { dataset: string; url: string }[];
  socrataAppToken?: string;
  /** REGISTER_COLUMNS_DIR: the lasting column overrides. */
  columnsDir: string;
}

/** The refresh's settings, from the configuration. */
export const refreshSettings = (config: Config): RefreshSettings => ({
  urls: config.REGISTER_URLS,
  timeoutMs: config.REGISTER_DOWNLOAD_TIMEOUT_MS,
  maxBytes: config.REGISTER_MAX_DOWNLOAD_BYTES,
  allowPrivate: config.FINCA_REGISTERS_ALLOW_PRIVATE,
  socrataAppToken: config.SOCRATA_APP_TOKEN,
  columnsDir: config.REGISTER_COLUMNS_DIR,
});

/** The configured URLs per dataset; an unknown dataset is a configuration error. */
export function refreshPlan(urls: RefreshSettings["urls"]): Map<Dataset, string[]> {
  const plan = new Map<Dataset, string[]>();
  for (const { dataset: id, url } of urls) {
    const dataset = datasetById(id);
    if (!dataset) throw new Error(`REGISTER_URLS names an unknown dataset "${id}" (see \`registers list\`)`);
    plan.set(dataset, [...(plan.get(dataset) ?? []), url]);
  }
  return plan;
}

/**
 * Downloads and imports one dataset from `urls`; the copy is as of the publisher's date the operator
 * states (`asOf`), else the dataset's stated snapshot, else its latest record's (never the day of
 * the download). The column overrides are the folder's unless `columns` are given.
 */
export async function importFromUrls(
  db: Db,
  dataset: Dataset,
  urls: readonly string[],
  settings: Omit<RefreshSettings, "urls">,
  options: { asOf?: string; onProgress?: (p: ImportProgress) => void; columns?: ColumnOverrides } = {},
): Promise<ImportResult> {
  const files = urls.map((url) =>
    remoteFile(url, { ...settings, headers: socrataHeaders(url, settings.socrataAppToken) }),
  );
  const columns = options.columns ?? (await lastingOverrides(settings.columnsDir, dataset));
  return importDataset(db, dataset, files, {
    asOf: options.asOf,
    onProgress: options.onProgress,
    columns,
  });
}

export type RefreshOutcome = { dataset: string } & ({ ok: true; result: ImportResult } | { ok: false; error: string });

/**
 * Refreshes every configured dataset (or only `only`), one after the other. A dataset that fails
 * keeps its previous copy and its error (see import.ts); the others are still refreshed.
 */
export async function refreshDatasets(db: Db, settings: RefreshSettings, only?: string): Promise<RefreshOutcome[]> {
  const outcomes: RefreshOutcome[] = [];
  for (const [dataset, urls] of refreshPlan(settings.urls)) {
    if (only && dataset.id !== only) continue;
    try {
      outcomes.push({ dataset: dataset.id, ok: true, result: await importFromUrls(db, dataset, urls, settings) });
    } catch (error) {
      outcomes.push({ dataset: dataset.id, ok: false, error: messageOf(error) });
    }
  }
  return outcomes;
}

export type RefreshJob = JobData<typeof QUEUES.refreshRegisters>;

/**
 * An admin's "refresh now": the download and import run in a worker (jobs/refresh-registers), not in
 * the request. A dataset that is none of the register index's, or has no URL, is refused (a
 * `validation_error` the console shows), never an error the server failed with.
 */
export async function requestRefresh(
  queue: Queue,
  tx: DbOrTx,
  urls: RefreshSettings["urls"],
  dataset: string,
): Promise<void> {
  if (!datasetById(dataset))
    throw new DomainError("validation_error", `There is no register dataset "${dataset.slice(0, 64)}".`);
  if (!urls.some((u) => u.dataset === dataset))
    throw new DomainError("validation_error", `No URL is configured for ${dataset} (REGISTER_URLS).`);
  // In the caller's transaction: the request and its record (the security history) commit together.
  await enqueue(queue, tx, QUEUES.refreshRegisters, { dataset } satisfies RefreshJob);
}
