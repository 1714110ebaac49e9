// The one wrapper every operation goes through, in the contract's precedence order:
// request id → API key (401) → rate limit on writes (429) → the handler (422, 400, ...).
// Errors become problem+json in one place; every response gets X-Request-Id; every answer is
// reported once to `onRequest`.
import { authenticateApiKey, touchApiKey, type Principal } from "@/lib/api-keys";
import { DomainError } from "@/lib/domain";
import { rateLimitBucket, rateLimited, rateLimitHeaders } from "@/lib/rate-limit";
import { errorFields } from "@/lib/observability/logger";
import { problemResponse, toDomainError } from "./errors";
import { loggablePath, requestIdOf } from "./request";
import type { ApiDeps, Handler, Operation, RequestRecord } from "./operation";

export function route(deps: ApiDeps, op: Operation): Handler {
  return async (req, params) => {
    const ctx = { deps, req, params, requestId: requestIdOf(req), startedAt: Date.now() };
    const headers: Record<string, string> = { "X-Request-Id": ctx.requestId };
    let principal: Principal | null = null;
    let response: Response;
    let error: DomainError | null = null;
    try {
      if (op.authenticated) {
        principal = await authenticate(deps, req, headers);
        if (op.write) await countWrite(deps, principal, headers);
        response = await op.handle({ ...ctx, principal });
      } else response = await op.handle(ctx);
    } catch (thrown) {
      error = toDomainError(thrown, ctx.requestId, deps.logger);
      response = problemResponse(error, ctx.requestId);
    }
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    report(deps, req, ctx, { operationId: op.id, status: response.status, principal, errorCode: error?.code ?? null });
    return response;
  };
}

/** Tells `deps.onRequest` about an answer (also used for the 404/405 answers outside operations). */
export function report(deps: ApiDeps, req: Request, ctx: { requestId: string; startedAt: number }, answer: Pick<RequestRecord, "operationId" | "status" | "errorCode"> & { principal: Principal | null }): void {
  if (!deps.onRequest) return;
  const { principal, ...rest } = answer;
  deps.onRequest({
    at: new Date(ctx.startedAt),
    requestId: ctx.requestId,
    method: req.method,
    path: loggablePath(req.url),
    durationMs: Date.now() - ctx.startedAt,
    partnerId: principal?.partnerId ?? null,
    mode: principal?.mode ?? null,
    keyId: principal?.apiKeyId ?? null,
    keyStart: principal?.visibleStart ?? null,
    ...rest,
  });
}

/** The key's principal (401 without one). */
async function authenticate(deps: ApiDeps, req: Request, headers: Record<string, string>): Promise<Principal> {
  const key = req.headers.get("x-api-key")?.trim();
  if (!key) throw new DomainError("missing_api_key", "Send your API key in the X-API-Key header.");
  const principal = await authenticateApiKey(deps.db, key);
  if (!principal) throw new DomainError("missing_api_key", "The API key is not valid or has been revoked.");
  touchApiKey(deps.db, principal).catch((error) => deps.logger.error({ requestId: headers["X-Request-Id"], ...errorFields(error) }, "api key last use not recorded"));
  return principal;
}

/** A write counted against its partner's limit (429 over it; the answer still names the partner). */
async function countWrite(deps: ApiDeps, principal: Principal, headers: Record<string, string>): Promise<void> {
  const decision = await deps.rateLimiter.hit(rateLimitBucket(principal));
  Object.assign(headers, rateLimitHeaders(decision));
  if (!decision.allowed) throw rateLimited(decision);
}
