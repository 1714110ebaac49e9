// Register index refreshes (pg-boss): on REGISTER_REFRESH_CRON every configured dataset, or the one
// an admin asked for. Thin: lib/registers downloads and imports; a failure stays on the dataset.
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db";
import type { Logger } from "@/lib/observability/logger";
import { QUEUES, workInParallel, type Queue } from "@/lib/queue";
import { refreshDatasets, refreshPlan, refreshSettings } from "@/lib/registers";

export async function registerRefreshRegistersWorker(
  queue: Queue,
  deps: { db: Db; config: Config; logger: Pick<Logger, "info" | "error"> },
) {
  const plan = refreshPlan(deps.config.REGISTER_URLS);
  // A refresh runs as long as its downloads may (it must not expire and start twice); a failed
  // one is not retried: its error stays on the dataset, and the next schedule tries again.
  await queue.updateQueue(QUEUES.refreshRegisters, {
    name: QUEUES.refreshRegisters,
    expireInSeconds: Math.ceil(deps.config.REGISTER_DOWNLOAD_TIMEOUT_MS / 1000) * Math.max(1, plan.size) + 300,
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
