// The pg-boss workers a process runs (jobs/ holds them, thin; lib/ does the work).
import type { Config } from "@/lib/config";
import type { Logger } from "@/lib/observability/logger";
import type { PropertiesDeps } from "@/lib/properties";
import type { JobRun } from "@/lib/queue";
import type { DeliveryDeps } from "@/lib/webhooks/deliver";
import { registerBatchWorker } from "@/jobs/batch";
import { registerDeliverWebhookWorker } from "@/jobs/deliver-webhook";
import { registerEnrichWorker } from "@/jobs/enrich";
import { registerRefreshRegistersWorker } from "@/jobs/refresh-registers";
import { registerPruneRequestLogsWorker } from "@/jobs/prune-request-logs";
import { registerSendEmailWorker } from "@/jobs/send-email";
import type { Mailer } from "@/lib/email";

export async function registerWorkers(
  deps: PropertiesDeps &
    DeliveryDeps & { config: Config; logger: Logger; mailer: Mailer | null; onJobRun?: (run: JobRun) => void },
): Promise<void> {
  await registerEnrichWorker(deps.queue, deps, deps.config.JOB_POLL_SECONDS, deps.onJobRun);
  await registerDeliverWebhookWorker(deps.queue, deps, deps.config.JOB_POLL_SECONDS, deps.onJobRun);
  await registerBatchWorker(deps.queue, deps, deps.config.JOB_POLL_SECONDS, deps.onJobRun);
  await registerRefreshRegistersWorker(deps.queue, deps);
  await registerPruneRequestLogsWorker(deps.queue, deps);
  await registerSendEmailWorker(deps.queue, deps, deps.config.JOB_POLL_SECONDS, deps.onJobRun);
}
