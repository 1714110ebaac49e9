// One Drizzle database on PostgreSQL: the server of DATABASE_URL, or the embedded PostgreSQL of the
// data folder (./embedded.ts) when it is unset.
import path from "node:path";
import { getTableName, sql, type Query, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgDatabase, PgQueryResultHKT, PgTable } from "drizzle-orm/pg-core";
import type { ClientConfig, Pool as PgPool, PoolClient } from "pg";
import { z } from "zod";
import { IDEMPOTENCY_HOURS, type Scope } from "@/lib/domain";
import { embeddedPostgres, type EmbeddedOptions } from "./embedded";
import { lowerPriority } from "./priority";
import { migrateQueues, type SqlExecutor } from "./queues";
import * as schema from "./schema";

export { schema };
export { insertFrom, jsonRecord, jsonRecords, writable } from "./records";
export { QUEUE_RETRIES, QUEUE_SCHEMA, QUEUES, type QueueName, type SqlExecutor } from "./queues";
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database or an open transaction: domain functions accept either. */
export type DbOrTx = Pick<Db, "select" | "insert" | "update" | "delete" | "execute" | "transaction" | "query" | "_">;

export interface Database {
  /** `embedded`: the data folder's own PostgreSQL; `postgres`: DATABASE_URL's. */
  kind: "embedded" | "postgres";
  /** The connection string (the embedded server's too): npm start's worker process connects with it. */
  url: string;
  db: Db;
  /** Raw SQL on the shared connection(s), for pg-boss. */
  executor: SqlExecutor;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent, the data folder's embedded PostgreSQL is used. */
  url?: string;
  /** The data folder of the embedded PostgreSQL (FINCA_DATA_DIR). */
  dataDir?: string;
  /** How the embedded PostgreSQL is shared and where it listens. */
  embedded?: EmbeddedOptions;
  /** Pool size and timeouts (defaults: see `PostgresEnv`). */
  postgres?: Partial<PostgresLimits>;
  /** Where a pooled connection's failure while idle is told (the App's logger). */
  onIdleError?: (error: Error) => void;
  /**
   * The scheduling priority (nice) the server processes of this pool's sessions are given: only for
   * a PostgreSQL on this machine whose processes this one may renice (npm start's embedded server,
   * for its worker process: FINCA_DATABASE_SESSION_NICE, set by server/worker-process.ts).
   */
  sessionNice?: number;
}

/**
 * A server that stops answering (frozen, failed over, a half-open network) must not hang requests:
 * each bound below ends in an error the API answers with 503. The pool wait is long so that a
 * burst that merely queues for the pool is served, not shed; the query timeout is far above any
 * query of ours, and a connection whose query timed out is discarded, never reused half-way.
 */
const PostgresEnv = z.object({
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).default(20),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(1).default(5_000),
  DATABASE_POOL_WAIT_MS: z.coerce.number().int().min(1).default(30_000),
  DATABASE_QUERY_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  // pg closes a connection idle for 10 s by default: the next burst then pays new backends, each
  // parsing our prepared statements and filling its caches again (up to 0.6 s per create here).
  DATABASE_POOL_IDLE_SECONDS: z.coerce.number().int().min(0).default(300),
  FINCA_EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
});

export interface PostgresLimits {
  poolSize: number;
  connectTimeoutMs: number;
  poolWaitMs: number;
  queryTimeoutMs: number;
  /** An idle connection is closed after this long; 0: never. */
  idleSeconds: number;
}

function databaseEnv(env: Record<string, string | undefined>): z.infer<typeof PostgresEnv> {
  // Empty variables mean "unset", as in lib/config.
  const parsed = PostgresEnv.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== "")),
  );
  if (!parsed.success)
    throw new Error(
      `Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  return parsed.data;
}

function postgresLimits(env: Record<string, string | undefined>): PostgresLimits {
  const e = databaseEnv(env);
  return {
    poolSize: e.DATABASE_POOL_SIZE,
    connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    poolWaitMs: e.DATABASE_POOL_WAIT_MS,
    queryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_MS,
    idleSeconds: e.DATABASE_POOL_IDLE_SECONDS,
  };
}

const MIGRATIONS = path.join(process.cwd(), "drizzle", "migrations");
// Any constant works; it only has to be the same in every instance that may migrate at once.
const MIGRATION_LOCK = 7_270_315_001;
type ConnectCallback = Parameters<PgPool["connect"]>[0];

export function defaultDatabaseOptions(env: Record<string, string | undefined> = process.env): DatabaseOptions {
  return {
    url: env.DATABASE_URL || undefined,
    dataDir: env.FINCA_DATA_DIR || path.join(process.cwd(), ".data"),
    embedded: { port: databaseEnv(env).FINCA_EMBEDDED_PG_PORT },
    postgres: postgresLimits(env),
    sessionNice: env.FINCA_DATABASE_SESSION_NICE ? Number(env.FINCA_DATABASE_SESSION_NICE) : undefined,
  };
}

/**
 * pg-boss's executor bound to a transaction, so a job is enqueued atomically with our rows. It runs
 * on the transaction's own client (pg's PoolClient, `query(text, values)`):
 * pg-boss reuses `$n` placeholders with different inferred types, which only the raw client keeps intact.
 */
export function executorFor(tx: Pick<Db, "execute">): SqlExecutor {
  // Drizzle keeps the transaction's client in its session, which its types do not show.
  const session = "session" in tx ? tx.session : null;
  const client = session && typeof session === "object" && "client" in session ? session.client : null;
  if (!client || typeof client !== "object" || !("query" in client) || typeof client.query !== "function")
    throw new Error("executorFor needs a Drizzle transaction of the node-postgres driver");
  const { query } = client;
  return { executeSql: (text, values) => query.call(client, text, values) };
}

/**
 * A statement of the hot path, prepared once per database: Drizzle builds its SQL once, and the
 * server parses and plans it once per connection. Values go in through `sql.placeholder`s.
 */
export function preparedStatement<P>(name: string, build: (db: Db) => { prepare(name: string): P }): (db: Db) => P {
  const cache = new WeakMap<Db, P>();
  return (db) => {
    let statement = cache.get(db);
    if (!statement) cache.set(db, (statement = build(db).prepare(name)));
    return statement;
  };
}

/**
 * Raw SQL of the hot path, prepared once per database (or transaction) as `preparedStatement` does
 * for the query builder: its text is built once for all of them (a transaction is a new object each
 * time), with `sql.placeholder`s for the values, and runs as a named statement the server parses and
 * plans once per connection. Resolves with the driver's result (`rowsOf` reads it).
 */
export function preparedSql(name: string, build: () => SQL): (db: Pick<Db, "_" | "execute">) => PreparedSql {
  const cache = new WeakMap<object, PreparedSql>();
  let query: Query | undefined;
  return (db) => {
    let statement = cache.get(db);
    if (!statement) {
      query ??= db.execute(build()).getQuery();
      statement = db._.session.prepareQuery(query, undefined, name, false);
      cache.set(db, statement);
    }
    return statement;
  };
}

export interface PreparedSql {
  execute(values: Record<string, unknown>): Promise<unknown>;
}

/** `%text%` for ILIKE, with the wildcards of `text` taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[%_\\]/g, "\\$&")}%`;

// The accented letters of Spanish, Catalan and Galician names, both cases, and their plain letters.
// translate() rather than the `unaccent` extension: translate is built in and IMMUTABLE (usable in an
// index expression), whereas unaccent() is only STABLE and needs CREATE EXTENSION on each server.
const ACCENTED = "ÁÀÂÄáàâäÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÖóòôöÚÙÛÜúùûüÑñÇç";
const PLAIN = "AAAAaaaaEEEEeeeeIIIIiiiiOOOOooooUUUUuuuuNnCc";

/** `text` with the letters of ACCENTED made plain, then ASCII-lower-cased whatever the database's locale. */
export const foldedSql = (text: SQL | AnyPgColumn) => sql`lower(translate(${text}, ${ACCENTED}, ${PLAIN}))`;

/** Whether `column` contains `text`, ignoring case and accents ("malaga" finds "Málaga"). */
export const foldedContains = (column: AnyPgColumn, text: string) =>
  sql`${foldedSql(column)} like ${foldedSql(sql`${containsPattern(text.normalize("NFC"))}`)}`;

/**
 * A column's bare name, for the places raw SQL needs it unqualified (an INSERT's column list, an
 * UPDATE's SET): interpolating the column itself would write "table"."column".
 */
export const bare = (column: AnyPgColumn) => sql.identifier(column.name);

/**
 * A column as "table"."column" wherever it stands. Drizzle writes columns bare in the fields of a
 * one-table select, where a correlated subquery would take them as its own table's.
 */
export const qualified = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/** Rows of a `db.execute` result. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * Migrations in drizzle/migrations the database has not applied (0 when it is up to date). Drizzle's
 * migrator applies every migration newer than the last one it recorded, so the newest recorded
 * `created_at` against the folder's is the whole test. Its table is drizzle's, not in our schema.
 */
export async function pendingMigrations(db: Pick<Db, "execute">): Promise<number> {
  // The folder does not change under a running process: read once.
  migrationTimes ??= import("drizzle-orm/migrator").then(({ readMigrationFiles }) =>
    readMigrationFiles({ migrationsFolder: MIGRATIONS }).map((m) => m.folderMillis),
  );
  const [last] = rowsOf<{ created_at: string | number | null }>(
    await db.execute(
      sql`select max(created_at) as created_at from ${sql.identifier("drizzle")}.${sql.identifier("__drizzle_migrations")}`,
    ),
  );
  const applied = Number(last?.created_at ?? 0);
  return (await migrationTimes).filter((millis) => millis > applied).length;
}
let migrationTimes: Promise<number[]> | undefined;

export async function openDatabase(options: DatabaseOptions = defaultDatabaseOptions()): Promise<Database> {
  const limits = { ...postgresLimits({}), ...options.postgres };
  if (options.url) return openPostgres(options.url, limits, options.onIdleError, options.sessionNice);
  const server = await embeddedPostgres(options.dataDir ?? path.join(process.cwd(), ".data"), options.embedded);
  try {
    const database = await openPostgres(server.url, limits, options.onIdleError, options.sessionNice);
    return {
      ...database,
      kind: "embedded",
      async close() {
        // The pool first: the server stops once no session is left.
        await database.close();
        await server.release();
      },
    };
  } catch (error) {
    await server.release();
    throw error;
  }
}

const QUERY_TIMED_OUT = "Query read timeout"; // pg's message for query_timeout

async function openPostgres(
  url: string,
  limits: PostgresLimits,
  onIdleError = (_: Error) => {},
  sessionNice?: number,
): Promise<Database> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  /**
   * drizzle-orm (0.45) sends a transaction's BEGIN before its try/finally: when the connection dies
   * during BEGIN (server restart), the client was never released, so the pool lost a client at
   * every outage and `end()` waited forever. A checked-out client whose connection fails goes back
   * (to be discarded) at once; its holder's own release then does nothing.
   */
  /** Each client's release by its current holder; a client with none yet has its query still unwrapped. */
  const holder = new WeakMap<PoolClient, (error?: Error | boolean) => void>();
  class Pool extends pg.Pool {
    override connect(): Promise<PoolClient>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback) {
      // pool.query checks out with a callback and handles errors itself.
      if (callback) return super.connect(callback);
      return super.connect().then((client) => {
        const release = client.release;
        let released = false;
        const releaseOnce = (error?: Error | boolean) => {
          if (released) return;
          released = true;
          client.off("error", releaseOnce);
          release(error);
        };
        client.release = releaseOnce;
        client.on("error", releaseOnce);
        const first = !holder.has(client);
        holder.set(client, releaseOnce);
        // A query that timed out leaves its connection waiting for an answer that may never come:
        // discarded at once (a BEGIN that timed out is never released either). The holder's next
        // statement, a ROLLBACK say, fails as "closed", which is an outage too. Wrapped once per
        // client (a pooled client comes back many times: wrapping each checkout stacked a layer per
        // checkout on every query), releasing whoever holds it now.
        if (first) {
          const query = client.query.bind(client) as (...args: unknown[]) => unknown;
          client.query = ((...args: unknown[]) => {
            const result = query(...args);
            if (result instanceof Promise)
              result.catch((error: Error) => error?.message === QUERY_TIMED_OUT && holder.get(client)?.(error));
            return result;
          }) as typeof client.query;
        }
        return client;
      });
    }
  }
  // The pool's connectionTimeoutMillis bounds the wait for a client; a client's own, its connecting.
  // (pool.query releases a client whose query failed with the error, which discards it.)
  class Client extends pg.Client {
    constructor(config?: ClientConfig) {
      super({ ...config, connectionTimeoutMillis: limits.connectTimeoutMs, query_timeout: limits.queryTimeoutMs });
    }
  }
  const pool = new Pool({
    connectionString: url,
    max: limits.poolSize,
    connectionTimeoutMillis: limits.poolWaitMs,
    idleTimeoutMillis: limits.idleSeconds * 1000,
    Client,
  });
  // A client dying (server restart) must not crash the process, and an 'error' event nobody listens
  // to is an uncaught exception. The pool listens only to idle clients (reported here), pool.query
  // once per query, and a dying connection can emit twice (the server's FATAL, then the closed
  // socket): every client gets a listener of its own. Its queries fail with the error anyway.
  pool.on("error", onIdleError);
  pool.on("connect", (client) => {
    client.on("error", () => {});
    // Asked before the client's first query (a client runs its queries in order). A backend of
    // another machine's server would be a process of ours by chance: only set for a local one.
    if (sessionNice !== undefined)
      client
        .query<{ pid: number }>("select pg_backend_pid() as pid")
        .then(({ rows: [row] }) => row && lowerPriority(row.pid, sessionNice))
        .catch(() => {}); // not permitted, or the session already gone: it keeps the server's priority
  });
  // Migrations (ours, then pg-boss's schema and queues: ./queues.ts) on a connection of their own,
  // without the query timeout: waiting for another instance's migration, or a long one, is not a dead server.
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: limits.connectTimeoutMs });
  client.on("error", () => {}); // its queries fail with the error anyway
  await client.connect();
  try {
    // Several instances may start together: one migrates, the others wait and find nothing to do.
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS });
    await migrateQueues({ executeSql: (text, values) => client.query(text, values) });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
  const db: Db = drizzle(pool, { schema });
  return {
    kind: "postgres",
    url,
    db,
    executor: { executeSql: (text, values) => pool.query(text, values as unknown[]) },
    close: () => pool.end(),
  };
}

// What an Idempotency-Key made: properties, webhook endpoints and batches keep their keys alike.

/** A table whose rows a partner makes with an Idempotency-Key. */
export type KeyedTable = PgTable & {
  id: AnyPgColumn;
  partnerId: AnyPgColumn;
  mode: AnyPgColumn;
  idempotencyKey: AnyPgColumn;
  createdAt: AnyPgColumn;
};

/**
 * The id of the row this partner and mode made with `key` within the key's life, or null. A row
 * whose key has outlived it gives the key up, so the key is free again. Whether the request is the
 * same one is the caller's question (each compares what it kept of the first).
 */
export async function madeWithKey(db: DbOrTx, table: KeyedTable, scope: Scope, key: string): Promise<string | null> {
  const [prior] = rowsOf<{ id: string; fresh: boolean }>(
    await db.execute(sql`select ${table.id} as id,
        ${table.createdAt} > now() - make_interval(hours => ${IDEMPOTENCY_HOURS}) as fresh
      from ${table}
      where ${table.partnerId} = ${scope.partnerId} and ${table.mode} = ${scope.mode}
        and ${table.idempotencyKey} = ${key}`),
  );
  if (!prior) return null;
  if (prior.fresh) return prior.id;
  await db.execute(sql`update ${table} set ${bare(table.idempotencyKey)} = null where ${table.id} = ${prior.id}`);
  return null;
}

/**
 * Deletes the rows of `table` whose `at` is older than `days`, `batch` a statement so that no
 * statement holds locks for long (the retention jobs); how many went.
 */
export async function pruneOlderThan(
  db: Pick<Db, "execute">,
  table: PgTable,
  columns: { id: AnyPgColumn; at: AnyPgColumn },
  days: number,
  batch = 10_000,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await db.execute(sql`
      delete from ${table} where ${columns.id} in (
        select ${columns.id} from ${table} where ${columns.at} < now() - make_interval(days => ${days}) limit ${batch}
      ) returning ${columns.id}`);
    const count = rowsOf(deleted).length;
    total += count;
    if (count < batch) return total;
  }
}
