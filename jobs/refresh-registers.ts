// Register index refreshes (pg-boss): on REGISTER_REFRESH_CRON every configured dataset, or the one
// an admin asked for. Thin: lib/registers downloads and imports; a failure stays on the dataset.
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db";
import type { Logger } from "@/lib/observability/logger";
import { QUEUES, workInParallel, type Queue } from "@/lib/queue";
import { refreshDatasets, refreshPlan, refreshSettings } from "@/lib/registers";

/**
 * How long a refresh may run: as long as its downloads may (it must not expire and start twice).
 * pg-boss refuses 24 h or more, which a long REGISTER_DOWNLOAD_TIMEOUT_MS times the datasets reached
 * (the workers then failed to start, naming no setting): such a start is refused, naming it.
 */
export function refreshExpirySeconds(config: Pick<Config, "REGISTER_DOWNLOAD_TIMEOUT_MS" | "REGISTER_URLS">): number {
  const datasets = Math.max(1, refreshPlan(config.REGISTER_URLS).size);
  const seconds = Math.ceil(config.REGISTER_DOWNLOAD_TIMEOUT_MS / 1000) * datasets + 300;
  if (seconds < 86_400) return seconds;
  const most = Math.floor((86_399 - 300) / datasets) * 1000;
  throw new Error(
    `REGISTER_DOWNLOAD_TIMEOUT_MS times the ${datasets} datasets to refresh must stay under 24 h: ` +
      `at most ${most} here.`,
  );
}

export async function registerRefreshRegistersWorker(
  queue: Queue,
  deps: { db: Db; config: Config; logger: Pick<Logger, "info" | "error"> },
) {
  const plan = refreshPlan(deps.config.REGISTER_URLS);
  // A failed refresh is not retried: its error stays on the dataset, and the next schedule tries again.
  await queue.updateQueue(QUEUES.refreshRegisters, {
    name: QUEUES.refreshRegisters,
    expireInSeconds: refreshExpirySeconds(deps.config),
    retryLimit: 0,
  });
  if (plan.size) await queue.schedule(QUEUES.refreshRegisters, deps.config.REGISTER_REFRESH_CRON, {}, { tz: "UTC" });
  else await queue.unschedule(QUEUES.refreshRegisters);
  await workInParallel(
    queue,
    QUEUES.refreshRegisters,
    { workers: 1, batchSize: 1, pollSeconds: deps.config.JOB_POLL_SECONDS },
    async (job) => {
      for (const outcome of await refreshDatasets(deps.db, refreshSettings(deps.config), job.dataset)) {
        if (outcome.ok)
          deps.logger.info(
            { dataset: outcome.dataset, rows: outcome.result.rows, asOf: outcome.result.asOf },
            "register dataset refreshed",
          );
        else deps.logger.error({ dataset: outcome.dataset, error: outcome.error }, "register dataset refresh failed");
      }
    },
  );
}
