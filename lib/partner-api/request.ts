// Request plumbing shared by every partner-API handler: request ids, bodies, JSON answers.
import { randomUUID } from "node:crypto";
import { readCapped } from "@/lib/http/read-capped";
import { DomainError, type FieldError } from "@/lib/domain";
import { IdempotencyHeaders } from "./schemas";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
/** How an API key or a signing secret begins. */
const SECRET_PREFIX = /finca_(?:live|test)_|whsec_/i;
/** A key or secret and what follows it of their alphabets (base62; base64 for secrets). */
const SECRET_RUN = /(finca_(?:live|test)_)[0-9A-Za-z]*|(whsec_)[0-9A-Za-z+/=]*/gi;

/** The client's X-Request-Id when it is sane and not a key or secret (it is stored and shown), else a new one. */
export function requestIdOf(req: Request): string {
  const incoming = req.headers.get("x-request-id");
  return incoming && SANE_REQUEST_ID.test(incoming) && !SECRET_PREFIX.test(incoming)
    ? incoming
    : `req_${randomUUID().replaceAll("-", "")}`;
}

/** `text`, or its first `max - 1` characters and `…`. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Longest path a log keeps (a 15 KB path is no one's request, but would be stored 30 days). */
export const MAX_LOGGED_PATH = 512;

/**
 * `text` with its ASCII percent-escapes (and JSON's \u00XX escapes) decoded, again and again (%2566 is
 * %66 is f); never throws.
 */
function asciiDecoded(text: string): string {
  for (let i = 0; i < 4 && /%|\\u/.test(text); i++) {
    const next = text
      .replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
      .replace(/\\u00([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
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
  return cut(kept, MAX_LOGGED_PATH);
}

/**
 * `text` for a request log: every key or secret in it redacted, or all of it when one is hidden
 * behind escapes (%66inca_live_…, \u0066inca_live_…) that a reader's decoding would undo.
 */
export function redactSecrets(text: string): string {
  const redacted = text.replace(SECRET_RUN, (_, key?: string) => (key ? "[redacted key]" : "[redacted secret]"));
  return SECRET_PREFIX.test(asciiDecoded(redacted)) ? "[redacted: it held a key or secret]" : redacted;
}

/** Longest query string, header value and body a request log keeps. */
export const LOGGED_QUERY_CHARS = 1024;
const LOGGED_HEADER_CHARS = 256;
const LOGGED_HEADERS = 40;
export const LOGGED_BODY_BYTES = 4096;

/** Query parameters and headers whose value is a credential by its name, whatever it looks like. */
const CREDENTIAL_NAME = /token|secret|passw|signature|auth|session|cookie|api[-_]?key|^key$/i;

/** A value for a request log: a credential's by its name, secrets in any other redacted, cut at `max`. */
const loggableValue = (name: string, value: string, max: number) =>
  CREDENTIAL_NAME.test(name) ? "[redacted]" : cut(redactSecrets(value), max);

/** A request's query string for a request log (decoded, secrets redacted, cut), null without one. */
export function loggableQuery(url: string): string | null {
  const { searchParams } = new URL(url);
  if (!searchParams.size) return null;
  const pairs = [...searchParams].map(
    ([name, value]) => `${redactSecrets(name)}=${loggableValue(name, value, LOGGED_QUERY_CHARS)}`,
  );
  return cut(pairs.join("&"), LOGGED_QUERY_CHARS);
}

/**
 * A request's headers for a request log: credentials replaced (the API key by its visible start when
 * it was valid), secrets in any other value redacted, values and their number capped. Header names
 * are redacted too (a key pasted as a name).
 */
export function loggableHeaders(req: Request, keyStart: string | null): Record<string, string> {
  const kept: Record<string, string> = {};
  let n = 0;
  for (const [name, value] of req.headers) {
    if (n++ === LOGGED_HEADERS) break;
    kept[redactSecrets(name)] =
      name === "x-api-key" && keyStart ? `${keyStart}…` : loggableValue(name, value, LOGGED_HEADER_CHARS);
  }
  return kept;
}

/** The first LOGGED_BODY_BYTES of each request's body a handler read, and how many bytes it read. */
const readBodies = new WeakMap<Request, { head: Uint8Array; bytes: number }>();

/** What a handler read of the request's body (its head, and its size), for the request log. */
export const bodyRead = (req: Request) => readBodies.get(req) ?? null;

/** A body's chunks as `chunks` yields them, their head and size kept for the request log. */
export async function* keepingBody(req: Request, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const kept = { head: new Uint8Array(), bytes: 0 };
  readBodies.set(req, kept);
  for await (const chunk of chunks) {
    if (kept.head.byteLength < LOGGED_BODY_BYTES)
      kept.head = Buffer.concat([kept.head, chunk.subarray(0, LOGGED_BODY_BYTES - kept.head.byteLength)]);
    kept.bytes += chunk.byteLength;
    yield chunk;
  }
}

/** A request body for a request log: UTF-8 text (lossy), secrets redacted, null when there was none. */
export function loggableBody(read: { head: Uint8Array; bytes: number } | null): string | null {
  if (!read?.bytes) return null;
  const text = redactSecrets(new TextDecoder().decode(read.head));
  return read.bytes > read.head.byteLength ? `${text}…` : text;
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
  readBodies.set(req, { head: bytes.slice(0, LOGGED_BODY_BYTES), bytes: bytes.byteLength });
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
