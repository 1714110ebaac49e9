// Baselines for bench/cli: opening the database the CLI opens, answering one query and closing it.
//   library: the database alone: one pg connection to DATABASE_URL, or the embedded PostgreSQL of
//            FINCA_DATA_DIR started (initialised first on a new folder), one connection, stopped
//   app:     lib/db's openDatabase (which also checks the migrations), as the CLI opens it
import { sql } from "drizzle-orm";
import { defaultDatabaseOptions, openDatabase } from "@/lib/db";
import { embeddedPostgres } from "@/lib/db/embedded";

const [mode] = process.argv.slice(2);
const options = defaultDatabaseOptions();

if (mode === "library") {
  const server = options.url ? null : await embeddedPostgres(options.dataDir!);
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: options.url ?? server!.url });
  await client.connect();
  await client.query("select 1");
  await client.end();
  await server?.release();
} else if (mode === "app") {
  const database = await openDatabase(options);
  await database.db.execute(sql`select 1`);
  await database.close();
} else {
  console.error("usage: bench/open-database.ts library|app");
  process.exit(2);
}
