// Request plumbing shared by every partner-API handler: request ids, bodies, JSON answers.
import { randomUUID } from "node:crypto";
import { readCapped } from "@/lib/http/read-capped";
import { DomainError, isUuid, type FieldError } from "@/lib/domain";
import { IdempotencyHeaders } from "./schemas";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
/** How an API key or a signing secret begins. */
const SECRET_PREFIX = /finca_(?:live|test)_|whsec_/i;

/** The client's X-Request-Id when it is sane and not a key or secret (it is stored and shown), else a new one. */
export function requestIdOf(req: Request): string {
  const incoming = req.headers.get("x-request-id");
  return incoming && SANE_REQUEST_ID.test(incoming) && !SECRET_PREFIX.test(incoming)
    ? incoming
    : `req_${randomUUID().replaceAll("-", "")}`;
}

/** Longest path a log keeps (a 15 KB path is no one's request, but would be stored 30 days). */
export const MAX_LOGGED_PATH = 512;

/** `text` with its ASCII percent-escapes decoded, again and again (%2566 is %66 is f); never throws. */
function asciiDecoded(text: string): string {
  for (let i = 0; i < 4 && text.includes("%"); i++) {
    const next = text.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === text) break;
    text = next;
  }
  return text;
}

/**
 * A request's path for logs and request logs: no query string (a client may put anything there),
 * at most MAX_LOGGED_PATH characters, and a key or secret pasted into it (GET /properties/finca_live_…)
 * redacted. Secrets are looked for in the decoded path (%66inca_live_… is the same key) and all that
 * follows one goes, since a whsec_ secret's base64 may hold a `/`.
 */
export function loggablePath(url: string): string {
  const path = new URL(url).pathname;
  const plain = asciiDecoded(path);
  const secret = SECRET_PREFIX.exec(plain);
  const kept = secret ? `${plain.slice(0, secret.index + secret[0].length)}[redacted]` : path;
  return kept.length > MAX_LOGGED_PATH ? `${kept.slice(0, MAX_LOGGED_PATH - 1)}…` : kept;
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
