// The one error type of the API and the one place that turns errors into RFC 9457 problem+json.
export const PROBLEM_TITLES = {
  invalid_cadastral_reference: "Invalid cadastral reference",
  missing_api_key: "Missing or invalid API key",
  validation_error: "Validation error",
  rate_limited: "Rate limit exceeded",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  service_unavailable: "Service unavailable",
  internal_error: "Internal error",
} as const;
export type ProblemCode = keyof typeof PROBLEM_TITLES;

/** One entry of a 422: `pointer` into the JSON body, or `parameter` for a query parameter. */
export type FieldError = { pointer: string; detail: string } | { parameter: string; detail: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
  }
}

export function problemResponse(error: ApiError, requestId: string): Response {
  const body = {
    type: `/docs/errors#${error.code}`,
    title: PROBLEM_TITLES[error.code],
    status: error.status,
    detail: error.detail,
    code: error.code,
    request_id: requestId,
    ...(error.extra.errors ? { errors: error.extra.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { "Content-Type": "application/problem+json", ...error.extra.headers },
  });
}

// Connection-level failures of the database: the request may succeed later, so 503, not 500.
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "57P01", "57P02", "57P03", "53300", "08006", "08001", "08003", "08004"]);

function isUnavailable(error: unknown): boolean {
  for (let e: any = error; e; e = e.cause) {
    if (UNAVAILABLE_CODES.has(e.code)) return true;
    // pg's messages: a lost connection, the pool's wait for a client, a client's own connect timeout,
    // a query's timeout, a query on a connection discarded after one.
    if (typeof e.message === "string" && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|^timeout expired$|^Query read timeout$/i.test(e.message)) return true;
  }
  return false;
}

/** Any thrown value → ApiError; unexpected ones are logged with the request id, never leaked. */
export function toApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  if (isUnavailable(error)) {
    console.error(`[api] ${requestId} database unavailable:`, (error as Error)?.message);
    return new ApiError(503, "service_unavailable", "The service is temporarily unavailable; retry shortly.", {
      headers: { "Retry-After": "2" },
    });
  }
  console.error(`[api] ${requestId} unhandled error:`, error);
  return new ApiError(500, "internal_error", "An unexpected error occurred; quote the request id to support.");
}
