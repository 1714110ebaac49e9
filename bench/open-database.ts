// Baselines for bench/cli: opening the database the CLI opens, answering one query and closing it.
//   library: the database library alone (PGlite on FINCA_DATA_DIR, or one pg connection to
//            DATABASE_URL), nothing of ours
//   app:     lib/db's openDatabase (which also checks the migrations), as the CLI opens it
import { sql } from "drizzle-orm";
import { defaultDatabaseOptions, openDatabase } from "@/lib/db";

const [mode] = process.argv.slice(2);
const options = defaultDatabaseOptions();

if (mode === "library") {
  if (options.url) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: options.url });
    await client.connect();
    await client.query("select 1");
    await client.end();
  } else {
    const { PGlite } = await import("@electric-sql/pglite");
    const db = await PGlite.create(options.dataDir!);
    await db.query("select 1");
    await db.close();
  }
} else if (mode === "app") {
  const database = await openDatabase(options);
  await database.db.execute(sql`select 1`);
  await database.close();
} else {
  console.error("usage: bench/open-database.ts library|app");
  process.exit(2);
}
