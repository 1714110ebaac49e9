// Request logs: one row per partner API request, so a partner can find a request again by its id
// and see what the API answered (Stripe's request logs). Never keys or secrets: the record holds
// what lib/partner-api reports (method, path, status, error code, timing, the key's visible start,
// and the detail: query, headers and the body's first 4 KiB with secrets redacted, the problem
// answered, the property). Rows are written in batches off the request path; a full queue drops
// rows (counted) rather than slowing or failing a request. One row never costs the others of its
// batch: what PostgreSQL refuses in text or jsonb is stored escaped, and an insert refused for its
// rows' content is split until only the refused row is lost (counted).
import { and, desc, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { bare, preparedSql, pruneOlderThan, schema, writable, type Db, type DbOrTx } from "@/lib/db";
import { can, sqlState, type Mode, type Role } from "@/lib/domain";
import { csvStream } from "@/lib/spreadsheets";

const { requestLogs, partners } = schema;

export type RequestLogEntry = Omit<typeof requestLogs.$inferInsert, "id">;
export type RequestLogRow = typeof requestLogs.$inferSelect;

export interface RequestLogWriter {
  /** Queues a row; never waits and never throws. */
  record(entry: RequestLogEntry): void;
  /** Writes what is queued (a flush already under way is awaited too). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

export interface WriterOptions {
  /** How often queued rows are written. */
  intervalMs: number;
  /** Rows per insert statement; a full batch is written at once. */
  batchSize: number;
  /** Rows the queue may hold, and their size (about, in bytes); more are dropped. */
  maxQueued: number;
  maxQueuedBytes: number;
  onWritten?(rows: number): void;
  onDropped?(rows: number): void;
  /** Rows not written: the database failed (every row of an insert), or `refused` this one row. */
  onError?(error: unknown, rows: number, refused: boolean): void;
}

/** About how many bytes a row holds (its text; a header or field name as 16). */
function sizeOf(entry: RequestLogEntry): number {
  let size = 128 + entry.path.length + entry.requestId.length + (entry.query?.length ?? 0);
  size += entry.requestBody?.length ?? 0;
  for (const value of Object.values(entry.requestHeaders ?? {})) size += 16 + value.length;
  if (entry.problem) size += JSON.stringify(entry.problem).length;
  return size;
}

/** What PostgreSQL refuses in text and jsonb: NUL (22021, 22P05) and a surrogate without its pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is this pattern's purpose.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `value` with `change` applied to every string in it, deep in plain objects (their keys too) and arrays. */
function mapStrings<T>(value: T, change: (text: string) => string): T {
  if (typeof value === "string") return change(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, change)) as T;
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [change(k), mapStrings(v, change)])) as T;
  return value;
}

/**
 * `value` with every string in it storable: what PostgreSQL refuses is written as its JSON escape
 * (`\u0000`), so a row keeps what was sent, visibly.
 */
const storable = <T>(value: T): T =>
  holdsUnstorable(value)
    ? mapStrings(value, (text) =>
        text.replace(UNSTORABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
      )
    : value;

const UNSTORABLE_ONE = new RegExp(UNSTORABLE.source);

/**
 * Whether any string in `value` (as mapStrings walks it) holds what PostgreSQL refuses: almost no
 * row does, and copying every row's headers and body to find out cost each request its share.
 */
function holdsUnstorable(value: unknown): boolean {
  if (typeof value === "string") return UNSTORABLE_ONE.test(value);
  if (Array.isArray(value)) return value.some(holdsUnstorable);
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    for (const [k, v] of Object.entries(value)) if (UNSTORABLE_ONE.test(k) || holdsUnstorable(v)) return true;
  return false;
}

/**
 * Whether a failed insert failed for its rows' content (data exceptions, integrity constraints such as
 * a partner deleted meanwhile, program limits): smaller inserts store the other rows. Anything else
 * (a connection lost, the database stopping) would fail them all the same.
 */
const failedForItsRows = (error: unknown) => /^(22|23|54)/.test(sqlState(error) ?? "");

const COLUMNS = writable(requestLogs);

/**
 * A batch's insert: an array a column, unnested, so its text is the same for any number of rows and
 * is prepared once per connection. Drizzle's VALUES list made a parameter of each value (seventeen
 * a row) and cost the server some 60 µs a row to build, more than all the rest of a request's log.
 */
const insertRows = preparedSql(
  "insert_request_logs",
  () =>
    sql`insert into ${requestLogs} (${sql.join(
      COLUMNS.map(([, column]) => bare(column)),
      sql`, `,
    )}) select * from unnest(${sql.join(
      COLUMNS.map(([key, column]) => sql`${sql.placeholder(key)}::${sql.raw(column.getSQLType())}[]`),
      sql`, `,
    )})`,
);

/** Each column's values as the driver is sent them (the column's own mapping), null where a row has none. */
const columnValues = (rows: RequestLogEntry[]) =>
  Object.fromEntries(
    COLUMNS.map(([key, column]) => [
      key,
      rows.map((row) => {
        const value = (row as Record<string, unknown>)[key];
        return value === null || value === undefined ? null : column.mapToDriverValue(value);
      }),
    ]),
  );

export function requestLogWriter(db: DbOrTx, options: WriterOptions): RequestLogWriter {
  let queue: { entry: RequestLogEntry; size: number }[] = [];
  // Rows not yet written, those a flush has taken too: what the bounds count.
  let queuedRows = 0;
  let queuedBytes = 0;
  let writing: Promise<void> = Promise.resolve();

  /**
   * Inserts `rows`; when they are refused for their content, each half on its own, down to single
   * rows: one bad row costs itself (and about 2·log2(batch) statements), not every partner's rows of its batch.
   */
  const insert = async (rows: RequestLogEntry[]): Promise<void> => {
    try {
      await insertRows(db).execute(columnValues(rows));
      options.onWritten?.(rows.length);
    } catch (error) {
      const refused = failedForItsRows(error);
      if (refused && rows.length > 1) {
        const half = Math.ceil(rows.length / 2);
        await insert(rows.slice(0, half));
        return insert(rows.slice(half));
      }
      // A log row is not worth a retry loop against a failing database: report and go on.
      options.onError?.(error, rows.length, refused);
    }
  };
  /**
   * Writes the rows queued when it starts. Rows recorded while it writes wait for the next flush (the
   * timer's, or a full batch's): writing them at once, again and again, made a steady stream of
   * requests a stream of inserts of a dozen rows each (48 a second at 650 creates a second), each
   * costing the database a statement and a commit.
   */
  const writeQueued = async () => {
    // Taken whole, not cut from the queue's front batch by batch (a copy of the rest each time).
    const taken = queue;
    queue = [];
    for (let at = 0; at < taken.length; at += options.batchSize) {
      const batch = taken.slice(at, at + options.batchSize);
      queuedRows -= batch.length;
      for (const { size } of batch) queuedBytes -= size;
      await insert(batch.map(({ entry }) => entry));
    }
  };
  // One flush waits behind the one writing: it takes whatever is queued when it starts.
  let waiting = false;
  const flush = () => {
    if (!waiting) {
      waiting = true;
      writing = writing.then(() => {
        waiting = false;
        return writeQueued();
      });
    }
    return writing;
  };
  const timer = setInterval(() => void flush(), options.intervalMs);
  timer.unref();

  // A row recorded after close (a request that outlived the stop's bound) has no flush to come: dropped, counted.
  let closed = false;
  return {
    record(entry) {
      const size = sizeOf(entry);
      if (closed || queuedRows >= options.maxQueued || queuedBytes + size > options.maxQueuedBytes)
        return void options.onDropped?.(1);
      queue.push({ entry: storable(entry), size });
      queuedRows += 1;
      queuedBytes += size;
      if (queue.length >= options.batchSize) void flush();
    },
    flush,
    async close() {
      closed = true;
      clearInterval(timer);
      await flush();
    },
  };
}

export const STATUS_CLASSES = ["2xx", "4xx", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** Who reads a partner's logs, in which mode: what they see depends on their role. */
export interface RequestLogReader {
  partnerId: string;
  mode: Mode;
  role: Role;
}

/**
 * A URL in text, written any way a URL parser takes (slashes JSON-escaped, `\\u002f`, backslashes, or
 * none): its scheme and host, then the rest, to the end of the text's token.
 */
const URL_IN_TEXT = /\bhttps?:(?:\\u002f|\\\\|\\?\/)*[^\s"'<>\\/?#]+([^\s"]*)/gi;
/** A request that creates or changes a webhook endpoint: its body and query hold the endpoint's URL. */
const ENDPOINT_PATH = /\/webhook-endpoints(?:\/|$)/;
const HIDDEN_ENDPOINT = "[hidden: a webhook endpoint's request, shown to roles that may see the mode's endpoints]";

/**
 * A row as `reader` may see it. A role that may not see the mode's webhook endpoints sees no URL in
 * it, only its host (as the security history names an endpoint), and nothing of the body or query of
 * a request to the endpoints: a live endpoint's URL may hold the receiver's token, and a URL can be
 * written in more ways (escapes inside its scheme) than a pattern over the text sent would find.
 */
function seenBy(reader: RequestLogReader, row: RequestLogRow): RequestLogRow {
  if (can(reader.role, "endpoints", reader.mode)) return row;
  const endpoint = ENDPOINT_PATH.test(row.path);
  const { path, query, requestHeaders, requestBody, problem } = mapStrings(
    {
      path: row.path,
      query: endpoint && row.query !== null ? HIDDEN_ENDPOINT : row.query,
      requestHeaders: row.requestHeaders,
      requestBody: endpoint && row.requestBody !== null ? HIDDEN_ENDPOINT : row.requestBody,
      problem: row.problem,
    },
    (text) => text.replace(URL_IN_TEXT, (url, rest: string) => (rest ? `${url.slice(0, -rest.length)}/[hidden]` : url)),
  );
  return { ...row, path, query, requestHeaders, requestBody, problem };
}

export interface RequestLogFilter extends RequestLogReader {
  /** A class (`4xx`) or an exact status. */
  status?: StatusClass | number;
  /** Paths starting with this. */
  path?: string;
  from?: Date;
  to?: Date;
  requestId?: string;
  /** Keyset paging: rows older than this row id. */
  before?: number;
  limit: number;
}

function statusCondition(status: StatusClass | number): SQL {
  if (typeof status === "number") return eq(requestLogs.status, status);
  const low = Number(status[0]) * 100;
  return and(gte(requestLogs.status, low), lt(requestLogs.status, low + 100))!;
}

/** A partner's requests in one mode, newest first, `limit + 1` rows so the caller knows there are more. */
export async function searchRequestLogs(
  db: Db,
  filter: RequestLogFilter,
): Promise<{ rows: RequestLogRow[]; next: number | null }> {
  const conditions = [
    eq(requestLogs.partnerId, filter.partnerId),
    eq(requestLogs.mode, filter.mode),
    filter.status !== undefined ? statusCondition(filter.status) : undefined,
    filter.path ? sql`starts_with(${requestLogs.path}, ${filter.path})` : undefined,
    filter.from ? gte(requestLogs.at, filter.from) : undefined,
    filter.to ? lte(requestLogs.at, filter.to) : undefined,
    filter.requestId ? eq(requestLogs.requestId, filter.requestId) : undefined,
    filter.before ? lt(requestLogs.id, filter.before) : undefined,
  ];
  const rows = await db
    .select()
    .from(requestLogs)
    .where(and(...conditions))
    .orderBy(desc(requestLogs.id))
    .limit(filter.limit + 1);
  const more = rows.length > filter.limit;
  return {
    rows: rows.slice(0, filter.limit).map((row) => seenBy(filter, row)),
    next: more ? rows[filter.limit - 1]!.id : null,
  };
}

/** One of a partner's requests in one mode by its row id, as the reader may see it (null: none of theirs). */
export async function getRequestLog(db: Db, scope: RequestLogReader, id: number): Promise<RequestLogRow | null> {
  const [row] = await db
    .select()
    .from(requestLogs)
    .where(and(eq(requestLogs.id, id), eq(requestLogs.partnerId, scope.partnerId), eq(requestLogs.mode, scope.mode)));
  return row ? seenBy(scope, row) : null;
}

/** Every request with this id, any partner or none (operators answering "what happened to req_…?"). */
export async function findRequest(db: Db, requestId: string): Promise<(RequestLogRow & { partner: string | null })[]> {
  const rows = await db
    .select({ log: requestLogs, partner: partners.name })
    .from(requestLogs)
    .leftJoin(partners, eq(partners.id, requestLogs.partnerId))
    .where(eq(requestLogs.requestId, requestId))
    .orderBy(desc(requestLogs.id))
    .limit(20);
  return rows.map((r) => ({ ...r.log, partner: r.partner }));
}

/** Deletes rows older than `days`, `batch` rows a statement. */
export const pruneRequestLogs = (db: Db, days: number, batch?: number): Promise<number> =>
  pruneOlderThan(db, requestLogs, { id: requestLogs.id, at: requestLogs.at }, days, batch);

const CSV_COLUMNS: [string, (row: RequestLogRow) => string | number | null][] = [
  ["at", (r) => r.at.toISOString()],
  ["request_id", (r) => r.requestId],
  ["method", (r) => r.method],
  ["path", (r) => r.path],
  ["query", (r) => r.query],
  ["status", (r) => r.status],
  ["error_code", (r) => r.errorCode],
  ["duration_ms", (r) => r.durationMs],
  ["key", (r) => r.keyVisibleStart],
  ["property_id", (r) => r.propertyId],
];

/** The CSV header of the Logs download: the list's columns, not bodies or headers (one request's page shows them). */
export const REQUEST_LOG_CSV_HEADER = CSV_COLUMNS.map(([name]) => name);

/**
 * The requests `filter` selects as CSV, newest first, `pageSize` rows read at a time, each as the
 * reader may see it.
 */
export function requestLogsCsv(
  db: Db,
  filter: Omit<RequestLogFilter, "before" | "limit">,
  pageSize = 500,
): ReadableStream<Uint8Array> {
  async function* pages() {
    let before: number | undefined;
    do {
      const { rows, next } = await searchRequestLogs(db, { ...filter, before, limit: pageSize });
      yield rows.map((row) => CSV_COLUMNS.map(([, cell]) => cell(row) ?? ""));
      before = next ?? undefined;
    } while (before !== undefined);
  }
  return csvStream(REQUEST_LOG_CSV_HEADER, pages());
}
