// Request plumbing shared by every partner-API handler: request ids, bodies, answers.
import { randomUUID } from "node:crypto";
import { chunksOf, readCapped } from "@/lib/http/read-capped";
import { DomainError, type FieldError } from "@/lib/domain";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
/** How an API key or a signing secret begins. */
const SECRET_PREFIX = /finca_(?:live|test)_|whsec_/i;

/** The client's X-Request-Id when it is sane and not a key or secret (it is stored and shown), else a new one. */
export function requestIdOf(req: Pick<Request, "headers">): string {
  const incoming = req.headers.get("x-request-id");
  return incoming && SANE_REQUEST_ID.test(incoming) && !SECRET_PREFIX.test(incoming)
    ? incoming
    : `req_${randomUUID().replaceAll("-", "")}`;
}

/** `text`, or its first `max - 1` characters (fewer where that would split a surrogate pair) and `…`. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 2] ?? "") ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

/** Longest path a log keeps (a 15 KB path is no one's request, but would be stored 30 days). */
export const MAX_LOGGED_PATH = 512;

/** Rounds of decoding a text may take; one still decoding after them is taken to hide something. */
const DECODE_ROUNDS = 16;

/**
 * `text` with its ASCII percent-escapes (and JSON's \u00XX escapes) decoded, again and again (%2566 is
 * %66 is f), or null when it still decodes after DECODE_ROUNDS (no client nests escapes that deep
 * but to hide what they spell); never throws.
 */
function asciiDecoded(text: string): string | null {
  for (let i = 0; i < DECODE_ROUNDS; i++) {
    if (!/%|\\u/.test(text)) return text;
    const next = text
      .replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
      .replace(/\\u00([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === text) return text;
    text = next;
  }
  return /%[0-7][0-9a-f]|\\u00[0-7][0-9a-f]/i.test(text) ? null : text;
}

/** A URL's userinfo in a path, its scheme optional (`//user:password@host` is a path too). */
const PATH_USERINFO = /\/\/([^/?#@\s]+)@/g;

/**
 * A request's path for logs and request logs: no query string (a client may put anything there),
 * at most MAX_LOGGED_PATH characters, and a key or secret pasted into it (GET /properties/finca_live_…)
 * or a URL's userinfo redacted. Both are looked for in the decoded path (%66inca_live_… is the same
 * key); all that follows a key or secret goes, since a whsec_ secret's base64 may hold a `/`, and
 * all that follows escapes nested too deep to read.
 */
export function loggablePath(url: string): string {
  const path = new URL(url).pathname;
  const decoded = asciiDecoded(path);
  const deep = decoded === null ? "[redacted: escapes nested too deep]" : "";
  const plain = decoded ?? path.slice(0, path.search(/%|\\u/));
  const bare = plain.replace(PATH_USERINFO, "//[redacted]@");
  const secret = SECRET_PREFIX.exec(bare);
  const kept = secret
    ? `${bare.slice(0, secret.index + secret[0].length)}[redacted]`
    : bare !== plain || deep
      ? bare + deep
      : path;
  return cut(kept, MAX_LOGGED_PATH);
}

/** JSON's escapes: `\uXXXX`, and a backslash before any other character (`\/`, `\\`, `\"`, `\n`, …). */
const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(.))/gs;
const JSON_SINGLE: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * `text` with JSON's escapes decoded (PHP writes `\/` by default; `\u0066` is f), and where each of
 * its characters starts in `text` (`from(plain.length)` is the end), so a match in what a reader sees
 * is cut out of what was sent.
 */
function jsonDecoded(text: string): { plain: string; from: (i: number) => number } {
  if (!text.includes("\\")) return { plain: text, from: (i) => i };
  let plain = "";
  const starts: number[] = [];
  let last = 0;
  const copy = (end: number) => {
    for (let i = last; i < end; i++) starts.push(i);
    plain += text.slice(last, end);
  };
  for (const m of text.matchAll(JSON_ESCAPE)) {
    copy(m.index);
    starts.push(m.index);
    plain += m[1] ? String.fromCharCode(Number.parseInt(m[1], 16)) : (JSON_SINGLE[m[2]!] ?? m[2]!);
    last = m.index + m[0].length;
  }
  copy(text.length);
  starts.push(text.length);
  return { plain, from: (i) => starts[i]! };
}

/** A key or secret: its prefix, then the run of its alphabet (base62; base64 for secrets). */
const SECRET_RUN = /(finca_(?:live|test)_)[0-9A-Za-z]*|whsec_[0-9A-Za-z+/=]*/gi;
/** Characters after the prefix of a whole key (38) or signing secret (base64 of 32 bytes, 43 and `=`). */
const KEY_BODY = 38;
const SECRET_BODY = 43;
/** A URL's userinfo (`https://user:password@host`): everything between `//` and `@`, in one authority. */
const USERINFO = /\b[a-z][a-z0-9+.-]*:\/\/([^/?#@\s"'<>\\]+)@/gi;

interface Redaction {
  text: string;
  /** It held a key or secret cut short (fewer characters than a whole one): its rest may be anywhere. */
  cutShort: boolean;
}

const CUT_SHORT = "[redacted: it held a key or secret cut short]";

/**
 * `text` with keys, secrets and URL userinfo redacted where a reader sees them once JSON escapes are
 * decoded. A key or secret cut short is taken as split across fields (`"finca_test_"` here, the rest
 * before or after it): none of the text is kept.
 */
function redacted(text: string): Redaction {
  const { plain, from } = jsonDecoded(text);
  const spans: [number, number, string][] = [];
  for (const m of plain.matchAll(SECRET_RUN)) {
    const key = Boolean(m[1]);
    const body = m[0].length - (key ? m[1]!.length : "whsec_".length);
    if (body < (key ? KEY_BODY : SECRET_BODY)) return { text: CUT_SHORT, cutShort: true };
    spans.push([from(m.index), from(m.index + m[0].length), key ? "[redacted key]" : "[redacted secret]"]);
  }
  for (const m of plain.matchAll(USERINFO)) {
    const start = m.index + m[0].length - m[1]!.length - 1;
    spans.push([from(start), from(start + m[1]!.length), "[redacted]"]);
  }
  // Overlapping spans (a key in a URL's userinfo) go as one, under the label of the one reaching further.
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number, string][] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (!last || span[0] >= last[1]) merged.push(span);
    else if (span[1] > last[1]) merged[merged.length - 1] = [last[0], span[1], span[2]];
  }
  let out = "";
  let end = 0;
  for (const [start, stop, label] of merged) {
    out += text.slice(end, start) + label;
    end = stop;
  }
  return { text: out + text.slice(end), cutShort: false };
}

/**
 * `text` for a request log: every key, secret and URL userinfo redacted, or all of it when a key or
 * secret hides behind percent-escapes (%66inca_live_…) that a reader's decoding would undo.
 */
export function redactSecrets(text: string): string {
  return redactedField(text).text;
}

/** What any redaction needs in a field: an escape to decode, a NUL, a URL's userinfo `@`, or a secret's prefix. */
const REDACTABLE = new RegExp(`[\\\\%@\\u0000]|${SECRET_PREFIX.source}`, SECRET_PREFIX.flags);
const HAS_USERINFO = new RegExp(USERINFO.source, "i");

function redactedField(text: string): Redaction {
  // Most fields hold none of it: nothing decodes or matches, so the text is kept as it is, unparsed.
  if (!REDACTABLE.test(text)) return { text, cutShort: false };
  const done = redacted(text);
  if (done.cutShort) return done;
  // What a reader who decodes escapes would see, where the text as sent matched nothing; NULs dropped
  // (UTF-16 text is valid UTF-8 with a NUL beside each character).
  const plain = asciiDecoded(done.text.replaceAll("\u0000", ""));
  if (plain === null) return { text: "[redacted: escapes nested too deep]", cutShort: false };
  if (plain === done.text) return done;
  if (SECRET_PREFIX.test(plain)) return { text: "[redacted: it held a key or secret]", cutShort: false };
  if (HAS_USERINFO.test(plain)) return { text: "[redacted: it held a URL's credentials]", cutShort: false };
  return done;
}

/** Longest query string, header value and body a request log keeps. */
export const LOGGED_QUERY_CHARS = 1024;
const LOGGED_HEADER_CHARS = 256;
const LOGGED_HEADERS = 40;
export const LOGGED_BODY_BYTES = 4096;

/** Query parameters and headers whose value is a credential by its name, whatever it looks like. */
const CREDENTIAL_NAME = new RegExp(
  [
    "token|secret|passw|(?:^|[-_.])pass(?:$|[-_.])|pwd|signature|auth|session|cookie|credential",
    "(?:private|access|api)[-_.]?key|^key$",
  ].join("|"),
  "i",
);

/** A name whose value is a credential, as sent or once decoded (`pass%77ord`). */
function credentialName(name: string): boolean {
  const plain = asciiDecoded(name);
  return plain === null || CREDENTIAL_NAME.test(plain);
}

/**
 * Name-value pairs (a query's, headers) for a request log: each redacted, a credential's value
 * replaced (by `shown`'s text, else `[redacted]`), values cut at `max`; null when one held a key or
 * secret cut short, whose rest may be in any other name or value (headers are not even in the
 * order sent), so none is kept.
 */
function loggablePairs(
  pairs: [string, string][],
  max: number,
  shown: (name: string) => string | null = () => null,
): [string, string][] | null {
  const kept: [string, string][] = [];
  for (const [name, value] of pairs) {
    const named = redactedField(name);
    const valued = credentialName(name) ? { text: shown(name) ?? "[redacted]", cutShort: false } : redactedField(value);
    if (named.cutShort || valued.cutShort) return null;
    kept.push([named.text, cut(valued.text, max)]);
  }
  return kept;
}

/** A request's query string for a request log (decoded, secrets redacted, cut), null without one. */
export function loggableQuery(url: string): string | null {
  // Most requests have none: no second parse of their URL (the path's is the first).
  if (!url.includes("?")) return null;
  const { searchParams } = new URL(url);
  if (!searchParams.size) return null;
  const pairs = loggablePairs([...searchParams], LOGGED_QUERY_CHARS);
  return pairs ? cut(pairs.map(([name, value]) => `${name}=${value}`).join("&"), LOGGED_QUERY_CHARS) : CUT_SHORT;
}

/**
 * A request's headers for a request log: credentials replaced (the API key by its visible start when
 * it was valid), secrets in any other value redacted, values and their number capped. Header names
 * are redacted too (a key pasted as a name).
 */
export function loggableHeaders(req: Request, keyStart: string | null): Record<string, string> {
  const sent = [...req.headers].slice(0, LOGGED_HEADERS);
  const pairs = loggablePairs(sent, LOGGED_HEADER_CHARS, (name) =>
    name === "x-api-key" && keyStart ? `${keyStart}…` : null,
  );
  // fromEntries, not assignment: a header named __proto__ is kept as one.
  return pairs ? Object.fromEntries(pairs) : { "[redacted]": CUT_SHORT };
}

/** A JSON value for a request log (the problem a request was answered with): each string redacted. */
export function loggableJson(value: unknown): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (Array.isArray(value)) return value.map(loggableJson);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, loggableJson(member)]));
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

/**
 * A request body for a request log: UTF-8 text, secrets redacted, null when there was none; a body
 * that is not text (an XLSX workbook) is said to be binary rather than kept as garbled text.
 */
export function loggableBody(read: { head: Uint8Array; bytes: number } | null): string | null {
  if (!read?.bytes) return null;
  const whole = read.bytes === read.head.byteLength;
  let decoded: string;
  try {
    // `stream` where the head is not the whole body: a character cut at its end is not an error. A BOM stays.
    decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(read.head, { stream: !whole });
  } catch {
    return `(binary, ${read.bytes} bytes)`;
  }
  const text = redactSecrets(decoded);
  return whole ? text : `${text}…`;
}

/**
 * An answer as the API makes it, before a server writes it: JSON text, a stream, or nothing. The
 * lean server writes it to node's response as it is; `responseOf` makes the Response a fetch-style
 * host (Next.js, the tests) is given. Making a Response (its Headers, its body's stream) and reading
 * it back cost the lean server's create more CPU than the create's JSON.
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  json?: string;
  stream?: ReadableStream<Uint8Array> | null;
}

export const responseOf = (answer: Answer): Response =>
  new Response(answer.json ?? answer.stream ?? null, { status: answer.status, headers: answer.headers });

/** A header of an answer, whatever the case its maker wrote it in. */
export function answerHeader(answer: Answer, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(answer.headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
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

/**
 * Bodies a server read whole before it made their Request (./node-server.ts), which then has no
 * stream of its own: read from here (readBody, bodyChunks), where making and reading back a stream
 * cost a create more CPU than its JSON.
 */
const wholeBodies = new WeakMap<Request, Uint8Array>();

export const keepWholeBody = (req: Request, bytes: Uint8Array) => void wholeBodies.set(req, bytes);

/** A body's chunks as they arrive, a body read whole before its Request was made in one. */
export async function* bodyChunks(req: Request): AsyncGenerator<Uint8Array> {
  const whole = wholeBodies.get(req);
  if (whole) yield whole;
  else yield* chunksOf(req.body);
}

/** A body's bytes, at most `maxBytes` of them: a larger body is a 422, and is not read on. */
export async function readBody(req: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > maxBytes) throw invalid(`The body must not exceed ${maxBytes} bytes.`);
  let bytes: Uint8Array | null;
  try {
    const whole = wholeBodies.get(req);
    bytes = whole ? (whole.byteLength > maxBytes ? null : whole) : await readCapped(req, maxBytes);
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
