// Request logs: one row per partner API request, so a partner can find a request again by its id
// and see what the API answered (Stripe's request logs). Never keys or secrets: the record holds
// what lib/partner-api reports (method, path, status, error code, timing, the key's visible start,
// and the detail: query, headers and the body's first 4 KiB with secrets redacted, the problem
// answered, the property). Rows are written in batches off the request path; a full queue drops
// rows (counted) rather than slowing or failing a request.
import { and, desc, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { pruneOlderThan, schema, type Db, type DbOrTx } from "@/lib/db";
import type { Mode } from "@/lib/domain";

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
  onError?(error: unknown, rows: number): void;
}

/** About how many bytes a row holds (its text; a header or field name as 16). */
function sizeOf(entry: RequestLogEntry): number {
  let size = 128 + entry.path.length + entry.requestId.length + (entry.query?.length ?? 0);
  size += entry.requestBody?.length ?? 0;
  for (const value of Object.values(entry.requestHeaders ?? {})) size += 16 + value.length;
  if (entry.problem) size += JSON.stringify(entry.problem).length;
  return size;
}

export function requestLogWriter(db: DbOrTx, options: WriterOptions): RequestLogWriter {
  let queue: { entry: RequestLogEntry; size: number }[] = [];
  let queuedBytes = 0;
  let writing: Promise<void> = Promise.resolve();

  const writeQueued = async () => {
    while (queue.length) {
      const batch = queue.slice(0, options.batchSize);
      queue = queue.slice(batch.length);
      for (const { size } of batch) queuedBytes -= size;
      try {
        await db.insert(requestLogs).values(batch.map(({ entry }) => entry));
        options.onWritten?.(batch.length);
      } catch (error) {
        // A log row is not worth a retry loop against a failing database: report and go on.
        options.onError?.(error, batch.length);
      }
    }
  };
  const flush = () => (writing = writing.then(writeQueued));
  const timer = setInterval(() => void flush(), options.intervalMs);
  timer.unref();

  return {
    record(entry) {
      const size = sizeOf(entry);
      if (queue.length >= options.maxQueued || queuedBytes + size > options.maxQueuedBytes)
        return void options.onDropped?.(1);
      queue.push({ entry, size });
      queuedBytes += size;
      if (queue.length >= options.batchSize) void flush();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

export const STATUS_CLASSES = ["2xx", "4xx", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface RequestLogFilter {
  partnerId: string;
  mode: Mode;
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
  return { rows: rows.slice(0, filter.limit), next: more ? rows[filter.limit - 1]!.id : null };
}

/** One of a partner's requests in one mode by its row id (null: none of theirs). */
export async function getRequestLog(
  db: Db,
  scope: { partnerId: string; mode: Mode },
  id: number,
): Promise<RequestLogRow | null> {
  const [row] = await db
    .select()
    .from(requestLogs)
    .where(and(eq(requestLogs.id, id), eq(requestLogs.partnerId, scope.partnerId), eq(requestLogs.mode, scope.mode)));
  return row ?? null;
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
