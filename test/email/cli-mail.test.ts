// Mail the operators' CLI queues on a database no server ever started on: pg-boss's queues are made
// where the schema is migrated (lib/db/queues.ts), so the CLI's send job has its queue, and a worker
// started later finds it there.
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { QUEUES, rowsOf, schema } from "@/lib/db";
import { ensurePartner } from "@/lib/partners";
import { createUser } from "@/lib/auth/users";
import { NEVER_MS } from "../support/bounds";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { runNode, stopAll } from "../support/processes";

let testDb: TestDatabase;
beforeAll(async () => {
  // Migrated by openDatabase alone: no startQueue, no server.
  testDb = await createTestDatabase();
});
afterEach(stopAll);
afterAll(() => testDb?.drop());

it("a freshly migrated database has every queue, and the CLI's live decision queues its owners' email", async () => {
  const { db } = testDb.database;
  const queues = rowsOf<{ name: string }>(await db.execute(sql`select name from pgboss.queue order by name`));
  expect(queues.map((q) => q.name)).toEqual(Object.values(QUEUES).sort());

  const partner = await ensurePartner(db, "Mail Before Start");
  // The hash is never checked here: nobody signs in.
  await createUser(db, { email: "owner@mail.test", passwordHash: "unused", role: "owner", partnerId: partner.id });

  const run = await runNode("scripts/finca.ts", ["partners", "live", "--partner", partner.name, "--grant"], {
    env: { DATABASE_URL: testDb.url },
    timeoutMs: NEVER_MS,
  });
  expect(run.code, run.stderr).toBe(0);

  const [email] = await db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.partnerId, partner.id));
  expect(email?.recipient).toBe("owner@mail.test");
  const jobs = rowsOf<{ data: { emailId: string } }>(
    await db.execute(sql`select data from pgboss.job where name = ${QUEUES.sendEmail}`),
  );
  expect(jobs.map((j) => j.data.emailId)).toEqual([email!.id]);
});
