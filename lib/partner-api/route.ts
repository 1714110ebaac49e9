// The one wrapper every operation goes through, in the contract's precedence order:
// request id → API key (401) → rate limit on writes (429) → the handler (422, 400, ...).
// The key's check, the write's count and the operation's lookup (a create's repeat check) are one
// database round trip; a lookup's input is read first, its errors held until after 401 and 429.
// Errors become problem+json in one place; every response gets X-Request-Id; every answer is
// reported once to `onRequest`.
import { sql } from "drizzle-orm";
import { authenticationWith, type Principal } from "@/lib/api-keys";
import { DomainError, parseQuery } from "@/lib/domain";
import { countedAs, rateLimitBucket, rateLimitBucketSql, rateLimited, rateLimitHeaders } from "@/lib/rate-limit";
import { problemBody, problemResponse, toDomainError } from "./errors";
import { declaredSchema } from "./openapi";
import { bodyRead, loggableBody, loggableHeaders, loggablePath, loggableQuery, requestIdOf } from "./request";
import type { ApiDeps, Context, Handler, Operation, Reply, RequestRecord } from "./operation";

export function route(deps: ApiDeps, op: Operation): Handler {
  const admit = admission(deps, op);
  return async (req, params) => {
    const ctx = { deps, req, requestId: requestIdOf(req), startedAt: Date.now(), about: {} };
    const headers: Record<string, string> = { "X-Request-Id": ctx.requestId };
    let principal: Principal | null = null;
    let response: Response;
    let error: DomainError | null = null;
    try {
      if (op.authenticated) {
        const input = op.lookup ? await settle(op.lookup.input(req)) : null;
        const admitted = await admit(req.headers.get("x-api-key"), input?.ok ? input.value.value : null);
        principal = admitted.principal;
        if (admitted.decision) {
          Object.assign(headers, rateLimitHeaders(admitted.decision));
          if (!admitted.decision.allowed) throw rateLimited(admitted.decision);
        }
        if (input && !input.ok) throw input.error;
        const looked = input?.ok
          ? { input: input.value.value, body: input.value.body, found: admitted.found }
          : undefined;
        const budget = admitted.decision ? countedAs(admitted.decision) : notAWrite(op.id);
        response = toResponse(await op.handle({ ...ctx, ...parsed(op, req, params), principal, looked, budget }));
      } else response = toResponse(await op.handle({ ...ctx, ...parsed(op, req, params) }));
    } catch (thrown) {
      error = toDomainError(thrown, ctx.requestId, deps.logger);
      response = problemResponse(error, ctx.requestId);
    }
    if (deps.validateReplies) {
      const drift = await undeclared(deps, op, response);
      if (drift) {
        error = toDomainError(new Error(drift), ctx.requestId, deps.logger);
        response = problemResponse(error, ctx.requestId);
      }
    }
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    report(deps, req, ctx, { operationId: op.id, status: response.status, principal, error });
    return response;
  };
}

/** How a JSON answer differs from what the operation declares for its status, or null. */
async function undeclared(deps: ApiDeps, op: Operation, response: Response): Promise<string | null> {
  const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
  // A database outage (503) or a bug (500) may answer any operation.
  if (!/^application\/(problem\+)?json$/.test(mediaType) || response.status >= 500) return null;
  const schema = declaredSchema(op, deps.config, response.status, mediaType);
  if (!schema) return `${op.id} answered ${response.status} ${mediaType}, which it does not declare`;
  const parsed = schema.safeParse(await response.clone().json());
  return parsed.success
    ? null
    : `${op.id} answered ${response.status} off its schema: ${parsed.error.message.slice(0, 500)}`;
}

/**
 * The request by the operation's declared schemas: its query (a 422 naming each parameter) and its
 * path parameters; undefined where it declares none.
 */
const parsed = (op: Operation, req: Request, params: Record<string, string>) => ({
  query: op.request?.query ? parseQuery(op.request.query, new URL(req.url)) : undefined,
  path: op.request?.path?.parse(params),
});

/** A handler's reply as HTTP: a JSON body, a stream, or nothing. */
function toResponse(reply: Reply): Response {
  if ("body" in reply)
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { "Content-Type": "application/json", ...reply.headers },
    });
  return new Response("stream" in reply ? reply.stream : null, { status: reply.status, headers: reply.headers });
}

/** A read's budget: a command that writes is a bug in the table (a write must say `write: true`). */
const notAWrite = (id: string) => () => Promise.reject(new Error(`${id} is not a write: it has no write budget`));

const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/** Tells `deps.onRequest` about an answer (also used for the 404/405 answers outside operations). */
export function report(
  deps: ApiDeps,
  req: Request,
  ctx: { requestId: string; startedAt: number; about?: Context["about"] },
  answer: Pick<RequestRecord, "operationId" | "status"> & { principal: Principal | null; error: DomainError | null },
): void {
  if (!deps.onRequest) return;
  const { principal, error, ...rest } = answer;
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
    errorCode: error?.code ?? null,
    ...rest,
    detail: () => ({
      query: loggableQuery(req.url),
      headers: loggableHeaders(req, principal?.visibleStart ?? null),
      body: loggableBody(bodyRead(req)),
      problem: error && problemBody(error, ctx.requestId),
      propertyId: ctx.about?.propertyId ?? null,
    }),
  });
}

/**
 * The key (401 without a valid one), the write counted against its partner's limit and the
 * operation's lookup: one statement where the limiter is the database's (an unauthenticated
 * request counts nothing: no key row, no hit), else the statement and then the limiter's store.
 * (Exported for bench/baseline-server.ts, which measures this statement with nothing around it.)
 */
export function admission(deps: Pick<ApiDeps, "db" | "rateLimiter">, op: Pick<Operation, "id" | "write" | "lookup">) {
  const counted = op.write ? deps.rateLimiter.inStatement : undefined;
  const { lookup } = op;
  const authenticate = authenticationWith(`${op.id}${counted ? "_counted" : ""}`, (key) => {
    const scope = { partnerId: key.partnerId, mode: key.mode };
    const found = lookup && sql`(${lookup.sql(scope, sql`${sql.placeholder("input")}`)}) as found`;
    const columns = [counted?.columns, found].filter((c) => c !== undefined);
    return {
      with: counted?.with(rateLimitBucketSql(scope), key.from),
      columns: columns.length ? sql.join(columns, sql`, `) : undefined,
    };
  });
  return async (header: string | null, input: string | null) => {
    const key = header?.trim();
    if (!key) throw new DomainError("missing_api_key", "Send your API key in the X-API-Key header.");
    const admitted = await authenticate(deps.db, key, { input });
    if (!admitted) throw new DomainError("missing_api_key", "The API key is not valid or has been revoked.");
    const { principal, row } = admitted;
    const decision = !op.write
      ? null
      : counted
        ? counted.decide(row)
        : await deps.rateLimiter.hit(rateLimitBucket(principal));
    return { principal, decision, found: typeof row.found === "string" ? row.found : null };
  };
}
