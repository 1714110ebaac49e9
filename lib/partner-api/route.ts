// The one wrapper every partner-API handler goes through, in the contract's precedence order:
// request id → API key (401) → rate limit on writes (429) → the handler (422, 400, ...).
// Errors become problem+json in one place; every response gets X-Request-Id.
import type { App } from "@/lib/app";
import { authenticateApiKey, touchApiKey, type Principal } from "@/lib/api-keys";
import { rateLimitBucket, rateLimitHeaders } from "@/lib/rate-limit";
import { ApiError, problemResponse, toApiError } from "./errors";
import { requestIdOf } from "./request";

export interface HandlerContext {
  app: App;
  req: Request;
  principal: Principal;
  requestId: string;
  /** When the request arrived (ms), so deadlines bound the whole response. */
  startedAt: number;
}

export type Handler = (req: Request) => Promise<Response>;

export function partnerRoute(app: App, options: { write: boolean }, handle: (ctx: HandlerContext) => Promise<Response>): Handler {
  return async (req) => {
    const startedAt = Date.now();
    const requestId = requestIdOf(req);
    const headers: Record<string, string> = { "X-Request-Id": requestId };
    let response: Response;
    try {
      const key = req.headers.get("x-api-key")?.trim();
      if (!key) throw new ApiError(401, "missing_api_key", "Send your API key in the X-API-Key header.");
      const principal = await authenticateApiKey(app.db, key);
      if (!principal) throw new ApiError(401, "missing_api_key", "The API key is not valid or has been revoked.");
      touchApiKey(app.db, principal).catch((error) => console.error(`[api] ${requestId} last_used_at:`, error));
      if (options.write) {
        const decision = await app.rateLimiter.hit(rateLimitBucket(principal.partnerId, principal.mode));
        Object.assign(headers, rateLimitHeaders(decision));
        if (!decision.allowed) {
          throw new ApiError(429, "rate_limited", `At most ${decision.limit} write requests per ${decision.windowSeconds} s; retry after ${headers["Retry-After"]} s.`);
        }
      }
      response = await handle({ app, req, principal, requestId, startedAt });
    } catch (error) {
      response = problemResponse(toApiError(error, requestId), requestId);
    }
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
}

/** Routes without an API key (the OpenAPI document, unknown paths): same ids and error format. */
export function publicRoute(handle: (req: Request) => Promise<Response>): Handler {
  return async (req) => {
    const requestId = requestIdOf(req);
    let response: Response;
    try {
      response = await handle(req);
    } catch (error) {
      response = problemResponse(toApiError(error, requestId), requestId);
    }
    response.headers.set("X-Request-Id", requestId);
    return response;
  };
}
