// The pool keeps an idle connection for DATABASE_POOL_IDLE_SECONDS (300 by default), not pg's own
// 10 s: a burst after a pause would otherwise pay new backends. A pool given a session priority
// renices its sessions' server processes where it may (npm start's worker on the embedded server).
// A pooled client's queries are wrapped once (for the query timeout), not at each checkout.
import { readFileSync } from "node:fs";
import type { Pool } from "pg";
import { getPriority } from "node:os";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf, type Database } from "@/lib/db";
import { autogroupNice } from "@/lib/db/priority";
import { NEVER_MS } from "./support/bounds";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.drop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The database's client connections other than the prober's own. */
async function others(prober: Database): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await prober.db.execute(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and backend_type = 'client backend'
        and pid <> pg_backend_pid()`,
    ),
  );
  return row!.n;
}

it("closes a connection idle for the configured time, and keeps one past pg's own 10 s", async () => {
  const prober = testDb.database;
  await prober.db.execute(sql`select 1`);
  const baseline = await others(prober);
  const brief = await openDatabase({ url: testDb.url, postgres: { poolSize: 2, idleSeconds: 1 } });
  const kept = await openDatabase({ url: testDb.url, postgres: { poolSize: 2, idleSeconds: 0 } });
  try {
    await Promise.all([brief, kept].map((d) => d.db.execute(sql`select 1`)));
    const used = Date.now();
    expect(await others(prober)).toBe(baseline + 2);
    const until = used + NEVER_MS;
    while ((await others(prober)) > baseline + 1 && Date.now() < until) await sleep(200);
    expect(await others(prober)).toBe(baseline + 1);
    // pg's default would have closed the other by now.
    await sleep(Math.max(0, used + 11_000 - Date.now()));
    expect(await others(prober)).toBe(baseline + 1);
  } finally {
    await Promise.all([brief.close(), kept.close()]);
  }
});

it("gives its sessions' server processes the priority asked, where this process may renice them", async () => {
  const low = await openDatabase({ url: testDb.url, postgres: { poolSize: 1 }, sessionNice: 19 });
  try {
    const [{ pid } = { pid: 0 }] = rowsOf<{ pid: number }>(await low.db.execute(sql`select pg_backend_pid() as pid`));
    // Root renices any process; another user only its own (a server on this machine run by another
    // user keeps its priority, and so does one elsewhere, whose pid is not a process here).
    const status = (() => {
      try {
        return readFileSync(`/proc/${pid}/status`, "utf8");
      } catch {
        return null;
      }
    })();
    const uid = status && Number(/^Uid:\s+(\d+)/m.exec(status)![1]);
    const mayRenice = status !== null && (process.getuid!() === 0 || uid === process.getuid!());
    if (mayRenice) {
      expect(getPriority(pid)).toBe(19);
      // Where the kernel shares CPU by session first (autogroup), the backend's own group too.
      if (autogroupNice(pid) !== null) expect(autogroupNice(pid)).toBe(19);
    } else if (status !== null) expect(getPriority(pid)).not.toBe(19);
  } finally {
    await low.close();
  }
});

it("wraps a pooled client's queries once, however often it is checked out", async () => {
  const one = await openDatabase({ url: testDb.url, postgres: { poolSize: 1 } });
  try {
    const pool = (one.db as unknown as { $client: Pool }).$client;
    const seen = new Set<unknown>();
    for (let i = 0; i < 5; i++) {
      const client = await pool.connect();
      seen.add(client.query);
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
      client.release();
    }
    // One function for the one connection: a layer per checkout would show five.
    expect(seen.size).toBe(1);
  } finally {
    await one.close();
  }
});
