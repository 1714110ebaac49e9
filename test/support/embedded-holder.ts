// A process holding the embedded PostgreSQL of FINCA_DATA_DIR as the server does (lib/db's default
// opening, which refuses a folder another process holds): prints `ready <kind>` once open, closes
// on SIGTERM. For test/embedded-postgres.test.ts.
import { sql } from "drizzle-orm";
import { defaultDatabaseOptions, openDatabase } from "@/lib/db";

const database = await openDatabase(defaultDatabaseOptions()).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
await database.db.execute(sql`select 1`);
console.log(`ready ${database.kind}`);
const keepAlive = setInterval(() => {}, 60_000);
process.once("SIGTERM", async () => {
  clearInterval(keepAlive);
  await database.close();
  console.log("closed");
});
