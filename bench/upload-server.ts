// For bench/abuse: the partner API on its lean server (scripts/serve-api.ts) in the same process as
// the portal's portfolio preview, so one partner's uploads and another's API reads share one event
// loop, as under `npm start`. The preview is the portal action's own command (lib/batches'
// previewUpload: the write budget, the row limits, the partner's workbook reader slot, the
// request's signal) behind `POST /bench/preview?format=csv|xlsx`; the bench names the partner in
// `X-Bench-Partner` where the portal has a session (Next.js's own cost is not what is measured).
import http from "node:http";
import { previewUpload } from "@/lib/batches";
import { DomainError } from "@/lib/domain";
import { createPartnerApi } from "@/lib/partner-api";
import { partnerApiListener } from "@/lib/partner-api/node-server";
import { budgetOn, rateLimitBucket } from "@/lib/rate-limit";
import { getApp } from "@/server/app";
import { appOrExit, closeOnSignals, stopHttpServer } from "@/server/lifecycle";
import { opsHandlers } from "@/server/ops";

const PREVIEW_PATH = "/bench/preview";

const app = await appOrExit(getApp);
const api = partnerApiListener(createPartnerApi(app), opsHandlers(app));

async function preview(req: http.IncomingMessage, res: http.ServerResponse) {
  const gone = new AbortController();
  res.once("close", () => !res.writableFinished && gone.abort(new Error("the client went away")));
  const scope = { partnerId: String(req.headers["x-bench-partner"]), mode: "test" as const };
  const format = new URL(req.url!, "http://localhost").searchParams.get("format") === "xlsx" ? "xlsx" : "csv";
  try {
    const budget = budgetOn(app.rateLimiter, rateLimitBucket(scope));
    const shown = await previewUpload(app, scope, budget, { format, body: req, signal: gone.signal });
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ total: shown.total }));
  } catch (error) {
    // A client gone (the request's abort) has no one to answer.
    if (!(error instanceof DomainError)) return void res.destroy();
    // The portal shows the refusal beside the form; here its code is the status's stand-in.
    const status = error.code === "rate_limited" ? 429 : 422;
    res.writeHead(status, { "Content-Type": "application/json", Connection: "close" });
    res.end(JSON.stringify({ code: error.code, detail: error.detail }));
  }
}

const server = http.createServer((req, res) => {
  if (req.method === "POST" && req.url?.startsWith(PREVIEW_PATH)) return void preview(req, res);
  return api(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 4000));
closeOnSignals(app, () => stopHttpServer(server));
