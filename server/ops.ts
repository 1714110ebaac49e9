// The operators' endpoints bound to an App (lean server) or to the process's App (Next.js routes).
import { healthResponse, metricsResponse, OPS_PATHS, readinessResponse } from "@/lib/ops";
import { getApp, type App } from "./app";
import { readinessChecks } from "./observability";

type Handler = (req: Request) => Promise<Response>;

export function opsHandlers(app: App): Record<string, Handler> {
  return {
    [OPS_PATHS.health]: async () => healthResponse(),
    [OPS_PATHS.ready]: (req) => readinessResponse(req, readinessChecks(app), app.config.READY_TIMEOUT_MS),
    [OPS_PATHS.metrics]: (req) => metricsResponse(req, app.metrics.registry, app.config.METRICS_TOKEN),
  };
}

/** Before the App exists, nothing is ready: how long `/api/ready` waits for it to start. */
const STARTING_WAIT_MS = 2000;

/** `/api/ready` on the process's App; while it is starting (or failed to), a 503 that says so. */
export async function handleReady(req: Request): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const app = await Promise.race([
    getApp().catch(() => null),
    new Promise<null>((resolve) => (timer = setTimeout(resolve, STARTING_WAIT_MS, null))),
  ]);
  clearTimeout(timer);
  if (!app)
    return readinessResponse(
      req,
      [{ name: "startup", failure: "the service has not started", check: async () => false }],
      STARTING_WAIT_MS,
    );
  return opsHandlers(app)[OPS_PATHS.ready]!(req);
}

/** `/metrics` on the process's App. */
export async function handleMetrics(req: Request): Promise<Response> {
  return opsHandlers(await getApp())[OPS_PATHS.metrics]!(req);
}
