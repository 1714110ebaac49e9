// A fresh, migrated database per test file: in-memory PGlite, or a new database on the
// PostgreSQL server of DATABASE_URL (dropped afterwards), so files never see each other's rows.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "@/lib/db";

export const onPostgres = Boolean(process.env.DATABASE_URL);

export interface TestDatabase {
  database: Database;
  /** Connection string of the PostgreSQL test database (PostgreSQL runs only). */
  url?: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const server = process.env.DATABASE_URL;
  if (!server) {
    const database = await openDatabase({ dataDir: "memory://" });
    return { database, drop: () => database.close() };
  }
  const name = `finca_t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), postgres: { poolSize: 10 } });
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close().catch(() => {});
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** `select count(*)` of a query, e.g. countOf(db, sql`select 1 from properties`). */
export async function countOf(db: import("@/lib/db").DbOrTx, query: import("drizzle-orm").SQL): Promise<number> {
  const { sql } = await import("drizzle-orm");
  const { rowsOf } = await import("@/lib/db");
  return rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${query}) q`))[0]!.n;
}
