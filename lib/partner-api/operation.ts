// What an API operation is: its place (method, path template), whether it needs a key and counts
// as a write, its documentation and its handler. The table of them is ./operations.ts.
import type { SQL } from "drizzle-orm";
import type { z } from "zod";
import type { FileReaders } from "@/lib/batches";
import type { Config } from "@/lib/config";
import type { ErrorCode, FieldError, Mode, WriteBudget } from "@/lib/domain";
import type { Principal } from "@/lib/api-keys";
import type { PropertiesDeps } from "@/lib/properties";
import type { RateLimiter } from "@/lib/rate-limit";
import type { ListenSlots } from "@/lib/webhooks/fair-share";
import type { ListenHub } from "@/lib/webhooks/listen";
import type { AuditLog } from "@/lib/audit";
import type { Answer } from "./request";

/** Where the partner API is served, on every host (the Next.js route, the lean server, the front door). */
export const BASE_PATH = "/api/v1/partner-api";

/** One answered request (never its key), for logs, metrics and partners' request logs. */
export interface RequestRecord {
  at: Date;
  requestId: string;
  method: string;
  /** The path as requested, without the query string. */
  path: string;
  /** The operation that answered, null for 404/405. */
  operationId: string | null;
  status: number;
  durationMs: number;
  partnerId: string | null;
  mode: Mode | null;
  /** The key's id and visible start, when a valid key was sent. */
  keyId: string | null;
  keyStart: string | null;
  errorCode: ErrorCode | null;
  /** What a partner debugs from, for the request log only (never a log line), secrets redacted; made on call. */
  detail(): RequestDetail;
}

export interface RequestDetail {
  /** The query string, decoded. */
  query: string | null;
  headers: Record<string, string>;
  /** The body's first LOGGED_BODY_BYTES as text (… when there was more), null when none was read. */
  body: string | null;
  /** The problem+json answered, for errors. */
  problem: Record<string, unknown> | null;
  /** The property the request created or read. */
  propertyId: string | null;
}

/** What the API's handlers need from the process (the composition root's App provides it). */
/** Where the API reports what went wrong on its side (pino's `error(fields, message)`). */
export interface ApiLogger {
  error(fields: Record<string, unknown>, message: string): void;
}

export interface ApiDeps extends PropertiesDeps {
  config: Config;
  /** Errors, and the security history's lines (lib/audit). */
  logger: ApiLogger & AuditLog;
  rateLimiter: RateLimiter;
  /** Told of every answered request, after the answer is built; must not throw or block. */
  onRequest?: (record: RequestRecord) => void;
  /** True once the server is stopping: long-lived answers (listen) end so the stop need not wait. */
  shuttingDown?(): boolean;
  /** The process's batch file readers (a partner's CSV parsed one at a time; workbook threads capped). */
  fileReaders: FileReaders;
  /** The process's listen sessions per partner (at most LISTEN_MAX_SESSIONS each). */
  listenSlots: ListenSlots;
  /** The process's one poller of events for its listen sessions. */
  listenHub: ListenHub;
  /**
   * Check every JSON answer against the schema its operation declares for that status (the tests
   * do; a mismatch is a 500 and a logged error): the OpenAPI document cannot drift from the answers.
   */
  validateReplies?: boolean;
}

export interface Context {
  deps: ApiDeps;
  req: Request;
  requestId: string;
  /** When the request arrived (ms), so deadlines bound the whole response. */
  startedAt: number;
  /** What the request was about, told by its handler for the request log. */
  about: { propertyId?: string };
}

/** A handler bound to its operation: path parameters come from the router. */
export type Handler = (req: Request, params: Record<string, string>) => Promise<Answer>;

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** The sections of the API reference, in order, with what each holds. */
export const TAGS = {
  Properties: "Register properties by cadastral reference and read them, enriched.",
  Portfolios:
    "Register thousands of properties in one request (JSON or CSV), follow their progress, download the results.",
  "Webhook endpoints":
    "Where events (`property.enriched`, `batch.completed`, `webhook.test`) are sent (Standard Webhooks).",
  Coverage: "What each register covers, per autonomous community.",
  Meta: "This API's own description.",
} as const;
export type Tag = keyof typeof TAGS;

/** A description, or one made from the configuration where it names a setting. */
export type Text = string | ((config: Config) => string);

/**
 * One declared answer of an operation, by status: a JSON body of a schema (with `Location` when it
 * created something), a stream in one of several media types, nothing, or a problem (a handler
 * throws a DomainError for those; the wrapper writes the problem+json). Each answer with a body
 * carries the document's example of it (./examples.ts): a JSON body typed by its schema, a stream's
 * text per media type (a binary one has none), a problem's detail and field errors as the product
 * writes them.
 */
export type Declared =
  | { kind: "json"; description: Text; schema: z.ZodType; example: unknown; location?: true }
  | { kind: "stream"; description: Text; content: Record<string, z.ZodType>; examples: Record<string, string> }
  | { kind: "empty"; description: Text }
  | { kind: "problem"; description: Text; example: ProblemExample | ((config: Config) => ProblemExample) };

/**
 * What a problem's example says beyond its code: its detail, and its field errors when it has any
 * (a DomainError is one).
 */
export type ProblemExample = { detail: string; errors?: readonly FieldError[] };

export type Responses = Record<`${number}`, Declared>;

export const answer = <S extends z.ZodType>(description: Text, schema: S, example: z.output<S>) =>
  ({ kind: "json", description, schema, example }) as const;
/** A created item's answer: its `Location` header is part of the reply's type. */
export const createdAnswer = <S extends z.ZodType>(description: Text, schema: S, example: z.output<S>) =>
  ({ kind: "json", description, schema, example, location: true }) as const;
export const streamAnswer = <C extends Record<string, z.ZodType>>(
  description: Text,
  content: C,
  examples: Partial<Record<keyof C, string>>,
) => ({ kind: "stream", description, content, examples: examples as Record<string, string> }) as const;
export const emptyAnswer = (description: Text) => ({ kind: "empty", description }) as const;
export const problemAnswer = (description: Text, example: ProblemExample | ((config: Config) => ProblemExample)) =>
  ({ kind: "problem", description, example }) as const;

type StatusOf<K> = K extends `${infer N extends number}` ? N : never;

/** What a handler may return: one of its operation's declared answers (a problem is thrown instead). */
export type ReplyTo<R extends Responses> = {
  [K in keyof R & string]: R[K] extends { kind: "json"; schema: infer S extends z.ZodType; location: true }
    ? { status: StatusOf<K>; body: z.input<S>; headers: { Location: string } }
    : R[K] extends { kind: "json"; schema: infer S extends z.ZodType }
      ? { status: StatusOf<K>; body: z.input<S>; headers?: Record<string, string> }
      : R[K] extends { kind: "stream" }
        ? { status: StatusOf<K>; stream: ReadableStream<Uint8Array> | null; headers: Record<string, string> }
        : R[K] extends { kind: "empty" }
          ? { status: StatusOf<K>; headers?: Record<string, string> }
          : never;
}[keyof R & string];

/** Any operation's reply, as the wrapper turns it into a Response. */
export type Reply =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { status: number; stream: ReadableStream<Uint8Array> | null; headers: Record<string, string> }
  | { status: number; headers?: Record<string, string> };

/**
 * What an operation takes besides its key, each part parsed by the wrapper with its schema before
 * the handler runs (a 422 naming the parameter, header or body member; a path that names nothing is
 * the 404 its schema says), in this order: headers, query, body, path.
 */
export interface RequestShape {
  headers?: z.ZodObject;
  query?: z.ZodObject;
  /** A JSON body (read up to MAX_BODY_BYTES). */
  body?: z.ZodType;
  /** Other media types of the body, for the document. */
  alsoAccepts?: Record<string, z.ZodType>;
  /**
   * The handler reads the body itself (a CSV upload streams; a batch's JSON is hashed as sent), by
   * `body`'s schema: the wrapper parses the other parts only.
   */
  bodyReadByHandler?: true;
  path?: z.ZodObject;
  /**
   * The document's example of the request (./examples.ts): its JSON body, and the text of each
   * other media type it shows (a binary one has none). Parameters carry theirs on their schemas.
   */
  examples?: { body?: unknown; alsoAccepts?: Record<string, string> };
}

type Parsed<Q, K extends keyof RequestShape> = Q extends { [P in K]: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;
/** The request as the wrapper parsed it by the operation's declared schemas (undefined: none declared). */
export type Input<Q> = {
  headers: Parsed<Q, "headers">;
  query: Parsed<Q, "query">;
  body: Q extends { bodyReadByHandler: true } ? undefined : Parsed<Q, "body">;
  path: Parsed<Q, "path">;
};

/**
 * An operation's contract: its place, whether it needs a key and counts as a write, its
 * documentation, what it takes and what it answers. The table of them is ./contract.ts.
 */
export interface Contract {
  /** The OpenAPI operationId, and the key of its handler. */
  id: string;
  method: Method;
  /** Under the base path, OpenAPI style: `/properties/{id}`. */
  path: string;
  /** The OpenAPI tag (a section of the reference), one of TAGS. */
  tag: Tag;
  summary: string;
  description: (config: Config) => string;
  authenticated: boolean;
  /** Counted against the write limit (authenticated operations only). */
  write: boolean;
  request?: RequestShape;
  /** Success and operation-specific error answers; 401, 422 and 429 follow from the flags. */
  responses: Responses;
}

/** What a keyed operation's handler gets: the key's principal, and its write's budget (counted with the key's check). */
interface Keyed {
  principal: Principal;
  budget: WriteBudget;
}

/** What the handler of contract `C` is called with. */
export type HandlerContext<C extends Contract> = Context &
  Input<C["request"]> &
  (C["authenticated"] extends true ? Keyed : unknown);

type Handle<C extends Contract, Extra = unknown> = (ctx: HandlerContext<C> & Extra) => Promise<ReplyTo<C["responses"]>>;

/**
 * A keyed operation's first read that depends on its input (a create's repeat check): the request
 * is parsed before the key is checked, so the read rides on the statement that checks the key and
 * counts the write (one round trip); the request's errors still answer after the key's and the limit's.
 */
export interface Lookup<I = unknown> {
  /** The value the read needs, from the parsed request; throws its 400. */
  input(request: I): string;
  /** The read: a scalar subquery over the key's scope, the input as `input` (a placeholder's SQL). */
  sql(scope: { partnerId: SQL; mode: SQL }, input: SQL): SQL;
}

/** What a lookup gave the handler: its input and the id it found (null: none). */
export interface Looked {
  input: string;
  found: string | null;
}

/** The handler of contract `C`: the function, or the function and its lookup. */
export type Implementation<C extends Contract> =
  | Handle<C>
  | { lookup: Lookup<Input<C["request"]>>; handle: Handle<C, { looked: Looked }> };

/**
 * A handler for every operation of a contract table, each typed by its entry: its input from its
 * request's schemas, its reply from its answers (an undeclared status or body does not compile).
 */
export type Handlers<T extends readonly Contract[]> = { [C in T[number] as C["id"]]: Implementation<C> };

/** The request as any handler gets it. */
type AnyInput = { [K in keyof Input<unknown>]: unknown };
/** What any handler is called with, as the wrapper calls it (each was typed against its own entry). */
type AnyContext = Context & AnyInput & Partial<Keyed> & { looked?: Looked };
type AnyLookup = { input(request: AnyInput): string; sql: Lookup["sql"] };
/** Method syntax: a handler of a narrower context is one of these (checked where it was defined). */
type AnyHandle = { handle(ctx: AnyContext): Promise<Reply> }["handle"];
type AnyImplementation = AnyHandle | { lookup: AnyLookup; handle: AnyHandle };

/** An operation as the wrapper, the router and the document see it: its contract and its handler. */
export interface Operation<Id extends string = string> extends Contract {
  id: Id;
  lookup?: AnyLookup;
  handle: AnyHandle;
}

/** The table of operations: each contract entry with its handler, in the contract's order. */
export function implement<const T extends readonly Contract[]>(
  contract: T,
  handlers: Record<T[number]["id"], AnyImplementation> & Record<string, AnyImplementation | undefined>,
): Operation<T[number]["id"]>[] {
  return contract.map((entry: T[number]) => {
    const implementation = handlers[entry.id];
    if (!implementation) throw new Error(`${entry.id} has no handler`);
    return typeof implementation === "function"
      ? { ...entry, handle: implementation }
      : { ...entry, ...implementation };
  });
}
