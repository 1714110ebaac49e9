// The one error of the domain: a stable code (the contract's problem codes) and a message meant for
// the partner. lib/partner-api maps the code to an HTTP status in one table; the portal shows the
// message. Anything else thrown is a bug (500) or an outage (503), decided at the HTTP edge.

export const ERROR_TITLES = {
  invalid_cadastral_reference: "Invalid cadastral reference",
  missing_api_key: "Missing or invalid API key",
  validation_error: "Validation error",
  rate_limited: "Rate limit exceeded",
  forbidden: "Forbidden",
  not_found: "Not found",
  too_many_active_batches: "Too many active batches",
  method_not_allowed: "Method not allowed",
  service_unavailable: "Service unavailable",
  internal_error: "Internal error",
} as const;
export type ErrorCode = keyof typeof ERROR_TITLES;
export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_TITLES, code);

/**
 * One entry of a validation error: `pointer` into a JSON body, `parameter` for a query parameter,
 * `header` for a request header, `line` of a CSV body (1 is its header row).
 */
export type FieldError =
  | { pointer: string; detail: string }
  | { parameter: string; detail: string }
  | { header: string; detail: string }
  | { line: number; detail: string };

/** Where a field error points, in words (the portal shows it before the detail). */
export function whereOf(e: FieldError): string {
  if ("pointer" in e) return e.pointer.slice(1) || "body";
  if ("parameter" in e) return e.parameter;
  if ("header" in e) return e.header;
  return `line ${e.line}`;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
  ) {
    super(detail);
    this.name = "DomainError";
  }
}

/**
 * A failed statement as an operator may read it: Drizzle's error message quotes the statement and
 * its parameters (row values), so only the SQLSTATE of the driver's error is told; null when the
 * error carries none (a connection that broke).
 */
export function sqlState(error: unknown): string | null {
  const cause = typeof error === "object" && error !== null && "cause" in error ? (error.cause ?? error) : error;
  const code = typeof cause === "object" && cause !== null && "code" in cause ? cause.code : null;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/** What a thrown value says: an Error's message, or the value itself as text (a string thrown). */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A thrown value's string `code` (Node's `ENOENT`, a library's `EOPENBREAKER`); undefined when it has none. */
export function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  return typeof code === "string" ? code : undefined;
}
