// A fresh, migrated database per test file: a new database on the PostgreSQL server of DATABASE_URL
// (the run's embedded one unless set: ./embedded-server.ts), dropped afterwards, so files never see
// each other's rows.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "@/lib/db";
import { NEVER_MS } from "./bounds";

export interface TestDatabase {
  database: Database;
  /** Connection string of the test database. */
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database on the PostgreSQL server of `serverUrl`, named `<prefix>_<random>`. */
export async function createPostgresDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const server = process.env.DATABASE_URL;
  if (!server) throw new Error("no DATABASE_URL: vitest's globalSetup (test/support/embedded-server.ts) sets it");
  const created = await createPostgresDatabase(server, "finca_t");
  // A burst of a test's requests queues for a connection as long as the machine makes it: only a
  // hang fails (the product's 30 s bound is tested on databases of its own).
  const database = await openDatabase({ url: created.url, postgres: { poolSize: 10, poolWaitMs: NEVER_MS } });
  return {
    database,
    url: created.url,
    async drop() {
      await database.close().catch(() => {});
      await created.drop();
    },
  };
}

/** `select count(*)` of a query, e.g. countOf(db, sql`select 1 from properties`). */
export async function countOf(db: import("@/lib/db").DbOrTx, query: import("drizzle-orm").SQL): Promise<number> {
  const { sql } = await import("drizzle-orm");
  const { rowsOf } = await import("@/lib/db");
  return rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${query}) q`))[0]!.n;
}

/**
 * A database that several processes share (a test and the children it crashes): the connection
 * string of a new database; `open` opens it in this process; `remove` drops it once every process
 * is done with it.
 */
export async function sharedDatabase(): Promise<{
  target: string;
  open(): Promise<TestDatabase>;
  remove(): Promise<void>;
}> {
  const testDb = await createTestDatabase();
  await testDb.database.close();
  const target = testDb.url;
  return {
    target,
    open: async () => ({ database: await openDatabase({ url: target }), url: target, drop: async () => {} }),
    remove: () => testDb.drop(),
  };
}
