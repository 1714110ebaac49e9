// The HTTP edge of errors: the one map from a domain error's code to its status, and the one
// writer of RFC 9457 problem+json. Anything that is not a DomainError is an outage of the database
// (503, the request may succeed later) or a bug (500, logged with the request id, never leaked).
import { DomainError, ERROR_TITLES, type ErrorCode } from "@/lib/domain";
import { errorFields } from "@/lib/observability/logger";
import type { ApiLogger } from "./operation";
import { redactSecrets, responseOf, type Answer } from "./request";

export const STATUS_OF_CODE: Record<ErrorCode, number> = {
  invalid_cadastral_reference: 400,
  missing_api_key: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  too_many_active_batches: 409,
  validation_error: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
};

/** What a 401 says of a request without a key. */
export const MISSING_KEY = "Send your API key in the X-API-Key header.";

/** Seconds a client should wait after a 503 before retrying. */
const UNAVAILABLE_RETRY_AFTER = "2";

/** The problem+json body of an error. */
export function problemBody(error: DomainError, requestId: string) {
  return {
    type: `/docs/errors#${error.code}`,
    title: ERROR_TITLES[error.code],
    status: STATUS_OF_CODE[error.code],
    detail: error.detail,
    code: error.code,
    request_id: requestId,
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

/** An error's problem+json answer (./request.ts), with `headers` besides its own. */
export function problemAnswer(error: DomainError, requestId: string, headers: Record<string, string> = {}): Answer {
  const body = problemBody(error, requestId);
  return {
    status: body.status,
    headers: {
      "Content-Type": "application/problem+json",
      ...(error.code === "service_unavailable" ? { "Retry-After": UNAVAILABLE_RETRY_AFTER } : {}),
      ...headers,
    },
    json: JSON.stringify(body),
  };
}

export const problemResponse = (error: DomainError, requestId: string, headers: Record<string, string> = {}) =>
  responseOf(problemAnswer(error, requestId, headers));

// Connection-level failures of the database: the request may succeed later, so 503, not 500.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "08006",
  "08001",
  "08003",
  "08004",
]);

function isUnavailable(error: unknown): boolean {
  for (let e = error; typeof e === "object" && e !== null; e = "cause" in e ? e.cause : undefined) {
    if ("code" in e && typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
    // pg's messages: a lost connection, the pool's wait for a client, a client's own connect timeout,
    // a query's timeout, a query on a connection discarded after one.
    if (
      "message" in e &&
      typeof e.message === "string" &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|^timeout expired$|^Query read timeout$/i.test(
        e.message,
      )
    )
      return true;
  }
  return false;
}

/**
 * Any thrown value as a DomainError; unexpected ones are logged with the request id (class, message
 * and the stack's frames: a database error's values stay out), never leaked.
 */
/** An error's log fields, a key, secret or URL credential its message quotes (a request's URL, say) redacted. */
function loggedError(error: unknown) {
  const fields = errorFields(error);
  return { ...fields, error: redactSecrets(fields.error) };
}

export function toDomainError(error: unknown, requestId: string, logger: ApiLogger): DomainError {
  if (error instanceof DomainError) return error;
  if (isUnavailable(error)) {
    logger.error({ requestId, ...loggedError(error) }, "database unavailable");
    return new DomainError("service_unavailable", "The service is temporarily unavailable; retry shortly.");
  }
  const frames =
    error instanceof Error
      ? error.stack
          ?.split("\n")
          .filter((line) => line.trimStart().startsWith("at "))
          .slice(0, 10)
          .join("\n")
      : undefined;
  logger.error({ requestId, ...loggedError(error), frames }, "unhandled error");
  return new DomainError("internal_error", "An unexpected error occurred; quote the request id to support.");
}
