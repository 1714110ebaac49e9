// What an API operation is: its place (method, path template), whether it needs a key and counts
// as a write, its documentation and its handler. The table of them is ./operations.ts.
import type { SQL } from "drizzle-orm";
import type { z } from "zod";
import type { FileReaders } from "@/lib/batches";
import type { Config } from "@/lib/config";
import type { ErrorCode, Mode, WriteBudget } from "@/lib/domain";
import type { Principal } from "@/lib/api-keys";
import type { PropertiesDeps } from "@/lib/properties";
import type { RateLimiter } from "@/lib/rate-limit";
import type { ListenSlots } from "@/lib/webhooks/fair-share";
import type { ListenHub } from "@/lib/webhooks/listen";
import type { AuditLog } from "@/lib/audit";

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
export type Handler = (req: Request, params: Record<string, string>) => Promise<Response>;

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
 * throws a DomainError for those; the wrapper writes the problem+json).
 */
export type Declared =
  | { kind: "json"; description: Text; schema: z.ZodType; location?: true }
  | { kind: "stream"; description: Text; content: Record<string, z.ZodType> }
  | { kind: "empty"; description: Text }
  | { kind: "problem"; description: Text };

export type Responses = Record<`${number}`, Declared>;

export const answer = <S extends z.ZodType>(description: Text, schema: S) =>
  ({ kind: "json", description, schema }) as const;
/** A created item's answer: its `Location` header is part of the reply's type. */
export const createdAnswer = <S extends z.ZodType>(description: Text, schema: S) =>
  ({ kind: "json", description, schema, location: true }) as const;
export const streamAnswer = <C extends Record<string, z.ZodType>>(description: Text, content: C) =>
  ({ kind: "stream", description, content }) as const;
export const emptyAnswer = (description: Text) => ({ kind: "empty", description }) as const;
export const problemAnswer = (description: Text) => ({ kind: "problem", description }) as const;

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

/** `body` is JSON; `alsoAccepts` other media types of the body (for the document; the command reads them). */
export interface RequestShape {
  /** Parsed by the wrapper (a 422 naming the parameter) and handed to the handler as `query`. */
  query?: z.ZodObject;
  /** Path parameters, parsed by the wrapper from the template's segments and handed over as `path`. */
  path?: z.ZodObject;
  headers?: z.ZodObject;
  /** Parsed by the write's command with this same schema, so the portal's write is checked by it too. */
  body?: z.ZodType;
  alsoAccepts?: Record<string, z.ZodType>;
}

type QueryOf<Q> = Q extends { query: infer S extends z.ZodType } ? z.output<S> : undefined;
type PathOf<Q> = Q extends { path: infer S extends z.ZodType } ? z.output<S> : undefined;
/** The request as the wrapper parsed it by the operation's declared schemas. */
type Parsed<Q> = { query: QueryOf<Q>; path: PathOf<Q> };

interface Described<Id extends string = string, R extends Responses = Responses, Q = RequestShape | undefined> {
  /** The OpenAPI operationId, and the key of the bound handler. */
  id: Id;
  method: Method;
  /** Under the base path, OpenAPI style: `/properties/{id}`. */
  path: string;
  /** The OpenAPI tag (a section of the reference), one of TAGS. */
  tag: Tag;
  summary: string;
  description: (config: Config) => string;
  request?: Q;
  /** Success and operation-specific error answers; 401, 422 and 429 follow from the flags. */
  responses: R;
  lookup?: Lookup;
}

/**
 * A keyed operation's first read that depends on its input (a create's repeat check): the input is
 * read and checked before the key, so the read rides on the statement that checks the key and
 * counts the write (one round trip); the input's errors still answer after the key's and the limit's.
 */
export interface Lookup {
  /** The input the read needs (`value`) and the body it came from, from the request; throws its 422 or 400. */
  input(req: Request): Promise<{ value: string; body: unknown }>;
  /** The read: a scalar subquery over the key's scope, the input as `input` (a placeholder's SQL). */
  sql(scope: { partnerId: SQL; mode: SQL }, input: SQL): SQL;
}

/** What a lookup gave the handler: its input, the body read for it, and the id it found (null: none). */
export interface Looked {
  input: string;
  body: unknown;
  found: string | null;
}

/** An operation as its handler is typed: its input from its request, its reply from its answers. */
type Spec<Id extends string, R extends Responses, Q extends RequestShape | undefined> = Described<Id, R, Q> &
  (
    | {
        authenticated: true;
        write: boolean;
        /** `budget`: a write's count, made with the key's check, for the write's command. */
        handle(
          ctx: Context & Parsed<Q> & { principal: Principal; looked?: Looked; budget: WriteBudget },
        ): Promise<ReplyTo<R>>;
      }
    | { authenticated: false; write: false; handle(ctx: Context & Parsed<Q>): Promise<ReplyTo<R>> }
  );

/** An operation as the wrapper, the router and the document see it (its types checked where it was defined). */
export type Operation<Id extends string = string> = Described<Id, Responses, RequestShape | undefined> &
  (
    | {
        authenticated: true;
        write: boolean;
        handle(
          ctx: Context & { query: unknown; path: unknown } & {
            principal: Principal;
            looked?: Looked;
            budget: WriteBudget;
          },
        ): Promise<Reply>;
      }
    | { authenticated: false; write: false; handle(ctx: Context & { query: unknown; path: unknown }): Promise<Reply> }
  );

/**
 * One entry of the table, checked against itself: a handler returning a status or a body its
 * answers do not declare is a compile error.
 */
export const defineOperation = <
  const Id extends string,
  const R extends Responses,
  const Q extends RequestShape | undefined = undefined,
>(
  spec: Spec<Id, R, Q>,
): Operation<Id> => spec as unknown as Operation<Id>;
