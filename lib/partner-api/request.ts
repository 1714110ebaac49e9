// Request plumbing shared by every partner-API handler: request ids, bodies, JSON answers.
import { randomUUID } from "node:crypto";
import { readCapped } from "@/lib/http/read-capped";
import { DomainError, isUuid, type FieldError } from "@/lib/domain";
import { IdempotencyHeaders } from "./schemas";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

export function requestIdOf(req: Request): string {
  const incoming = req.headers.get("x-request-id");
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : `req_${randomUUID().replaceAll("-", "")}`;
}

// A key or signing secret pasted into a path (GET /properties/finca_live_…): logged redacted.
const SECRET_SHAPED = /(finca(?:_|%5f)(?:live|test)(?:_|%5f)|whsec(?:_|%5f))[^/]*/gi;

/** A request's path for logs and request logs: no query string (a client may put anything there), secrets redacted. */
export function loggablePath(url: string): string {
  return new URL(url).pathname.replace(SECRET_SHAPED, "$1[redacted]");
}

export const MAX_BODY_BYTES = 16 * 1024;

const invalid = (detail: string, errors: FieldError[] = [{ pointer: "", detail }]) =>
  new DomainError("validation_error", detail, errors);

export const isJson = (req: Request) =>
  /^application\/json\s*(;|$)/i.test((req.headers.get("content-type") ?? "").trim());

export const unsupportedType = (req: Request, wanted: string) =>
  invalid(`Content-Type must be ${wanted}.`, [
    { pointer: "", detail: `unsupported Content-Type: ${req.headers.get("content-type") || "(none)"}` },
  ]);

/** A body's bytes, at most `maxBytes` of them: a larger body is a 422, and is not read on. */
export async function readBody(req: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > maxBytes) throw invalid(`The body must not exceed ${maxBytes} bytes.`);
  let bytes: Uint8Array | null;
  try {
    bytes = await readCapped(req, maxBytes);
  } catch {
    // The client went away mid-body (its socket's ECONNRESET is no database outage).
    throw invalid("The body could not be read to its end.");
  }
  if (bytes === null) throw invalid(`The body must not exceed ${maxBytes} bytes.`);
  return bytes;
}

/** Reads a JSON body: content type, size cap and syntax are all 422s (the contract's validation_error). */
export async function readJsonBody(req: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  if (!isJson(req)) throw unsupportedType(req, "application/json");
  return parseJsonBytes(await readBody(req, maxBytes));
}

/** UTF-8 JSON text, else a 422. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalid("The body is not valid UTF-8.");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalid("The body is not valid JSON.");
  }
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

/** A path parameter that must be an id: its decoded value, or null when it cannot name one (then: 404). */
export function idParam(raw: string | undefined): string | null {
  let id: string;
  try {
    id = decodeURIComponent(raw ?? "");
  } catch {
    return null; // a malformed percent-encoding names nothing
  }
  return isUuid(id) ? id.toLowerCase() : null;
}

/** The Idempotency-Key header, checked: at most 200 visible characters. */
export function idempotencyKey(req: Request): string | null {
  const key = req.headers.get("idempotency-key");
  if (key === null) return null;
  const parsed = IdempotencyHeaders.shape["Idempotency-Key"].safeParse(key);
  if (!parsed.success || !key || !/^[\x21-\x7e]+$/.test(key)) {
    const detail = "must be 1 to 200 visible ASCII characters";
    throw new DomainError("validation_error", `The Idempotency-Key header ${detail}.`, [
      { header: "Idempotency-Key", detail },
    ]);
  }
  return key;
}
