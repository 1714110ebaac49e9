// Retention (pg-boss), daily: request log rows older than REQUEST_LOG_RETENTION_DAYS and security
// history rows older than AUDIT_RETENTION_DAYS go.
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { QUEUES, type Queue } from "@/lib/queue";
import { pruneRequestLogs } from "@/lib/request-logs";
import { pruneAudit } from "@/lib/audit";

export const PRUNE_REQUEST_LOGS_CRON = "17 4 * * *";

export async function registerPruneRequestLogsWorker(queue: Queue, deps: { db: Db; config: Config }) {
  await queue.schedule(QUEUES.pruneRequestLogs, PRUNE_REQUEST_LOGS_CRON, {}, { tz: "UTC" });
  await queue.work(QUEUES.pruneRequestLogs, { pollingIntervalSeconds: deps.config.JOB_POLL_SECONDS }, async () => {
    await pruneRequestLogs(deps.db, deps.config.REQUEST_LOG_RETENTION_DAYS);
    await pruneAudit(deps.db, deps.config.AUDIT_RETENTION_DAYS);
  });
}
