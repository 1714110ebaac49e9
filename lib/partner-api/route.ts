// The one wrapper every operation goes through, in the contract's precedence order:
// request id → API key (401) → rate limit on writes (429) → the request parsed by the operation's
// schemas (422; 404 for a path naming nothing) → the handler (400, 404, ...).
// The key's check, the write's count and the operation's lookup (a create's repeat check) are one
// database round trip; a lookup's request is parsed first, its errors held until after 401 and 429.
// Errors become problem+json in one place; every response gets X-Request-Id; every answer is
// reported once to `onRequest`.
import { sql } from "drizzle-orm";
import { authenticationWith, type Principal } from "@/lib/api-keys";
import type { z } from "zod";
import { DomainError, parseBody, parseHeaders, parseQuery } from "@/lib/domain";
import { countedAs, rateLimitBucket, rateLimitBucketSql, rateLimited, rateLimitHeaders } from "@/lib/rate-limit";
import { MISSING_KEY, problemAnswer, problemBody, toDomainError } from "./errors";
import { declaredSchema } from "./openapi";
import {
  answerHeader,
  bodyRead,
  loggableBody,
  loggableHeaders,
  loggableJson,
  loggablePath,
  loggableQuery,
  readJsonBody,
  requestIdOf,
  type Answer,
} from "./request";
import type { ApiDeps, Context, Handler, Operation, Reply, RequestRecord } from "./operation";

export function route(deps: ApiDeps, op: Operation): Handler {
  const admit = admission(deps, op);
  const { lookup } = op;
  return async (req, params) => {
    const ctx = { deps, req, requestId: requestIdOf(req), startedAt: Date.now(), about: {} };
    const headers: Record<string, string> = { "X-Request-Id": ctx.requestId };
    let principal: Principal | null = null;
    let answer: Answer;
    let error: DomainError | null = null;
    try {
      if (op.authenticated) {
        // A lookup needs the request before the key: it is parsed first, its errors held until after 401 and 429.
        const early = lookup
          ? await settle(parsedRequest(op, req, params).then((input) => ({ input, value: lookup.input(input) })))
          : null;
        const admitted = await admit(req.headers.get("x-api-key"), early?.ok ? early.value.value : null);
        principal = admitted.principal;
        if (admitted.decision) {
          Object.assign(headers, rateLimitHeaders(admitted.decision));
          if (!admitted.decision.allowed) throw rateLimited(admitted.decision);
        }
        if (early && !early.ok) throw early.error;
        const input = early ? early.value.input : await parsedRequest(op, req, params);
        const looked = early ? { input: early.value.value, found: admitted.found } : undefined;
        const budget = admitted.decision ? countedAs(admitted.decision) : notAWrite(op.id);
        answer = toAnswer(await op.handle({ ...ctx, ...input, principal, looked, budget }));
      } else answer = toAnswer(await op.handle({ ...ctx, ...(await parsedRequest(op, req, params)) }));
    } catch (thrown) {
      error = toDomainError(thrown, ctx.requestId, deps.logger);
      answer = problemAnswer(error, ctx.requestId);
    }
    if (deps.validateReplies) {
      const drift = undeclared(deps, op, answer);
      if (drift) {
        error = toDomainError(new Error(drift), ctx.requestId, deps.logger);
        answer = problemAnswer(error, ctx.requestId);
      }
    }
    Object.assign(answer.headers, headers);
    report(deps, req, ctx, { operationId: op.id, status: answer.status, principal, error });
    return answer;
  };
}

/** How a JSON answer differs from what the operation declares for its status, or null. */
function undeclared(deps: ApiDeps, op: Operation, answer: Answer): string | null {
  const mediaType = (answerHeader(answer, "content-type") ?? "").split(";")[0]!.trim();
  // A database outage (503) or a bug (500) may answer any operation.
  if (!/^application\/(problem\+)?json$/.test(mediaType) || answer.status >= 500) return null;
  const schema = declaredSchema(op, deps.config, answer.status, mediaType);
  if (!schema) return `${op.id} answered ${answer.status} ${mediaType}, which it does not declare`;
  const parsed = schema.safeParse(JSON.parse(answer.json ?? "null"));
  return parsed.success
    ? null
    : `${op.id} answered ${answer.status} off its schema: ${parsed.error.message.slice(0, 500)}`;
}

/**
 * The request by the operation's declared schemas, in the contract's order (headers, query, JSON
 * body, path): the first part off its schema is a 422 naming its members, a path that names nothing
 * the 404 its schema says; undefined where the operation declares none.
 */
async function parsedRequest(op: Operation, req: Request, params: Record<string, string>) {
  const shape = op.request;
  const headers = shape?.headers && parseHeaders(shape.headers, req.headers);
  const query = shape?.query && parseQuery(shape.query, new URL(req.url));
  const body = shape?.body && !shape.bodyReadByHandler ? parseBody(shape.body, await readJsonBody(req)) : undefined;
  const path = shape?.path && parsePath(shape.path, params);
  return { headers, query, body, path };
}

function parsePath(schema: z.ZodType, params: Record<string, string>): unknown {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  throw new DomainError("not_found", parsed.error.issues[0]?.message ?? "Nothing is at this path.");
}

/** A handler's reply as an answer: a JSON body, a stream, or nothing. */
function toAnswer(reply: Reply): Answer {
  if ("body" in reply)
    return {
      status: reply.status,
      headers: { "Content-Type": "application/json", ...reply.headers },
      json: JSON.stringify(reply.body),
    };
  return { status: reply.status, headers: { ...reply.headers }, stream: "stream" in reply ? reply.stream : null };
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
      // Its detail and field errors may repeat what was sent (a member's name, a column's): redacted too.
      problem: error && (loggableJson(problemBody(error, ctx.requestId)) as Record<string, unknown>),
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
    if (!key) throw new DomainError("missing_api_key", MISSING_KEY);
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
