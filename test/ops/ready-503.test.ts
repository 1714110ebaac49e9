// GET /api/ready answers 503 problem+json naming the failing check: the database closed or frozen
// (PostgreSQL behind a proxy that stops forwarding), a migration not applied, the queue stopped.
// The problem says which check failed in fixed words, never the error (hosts, users, SQL).
import { sql } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { openDatabase } from "@/lib/db";
import { createApp, type App } from "@/server/app";
import { createTestApp, problemOf, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { createFreezingProxy } from "../support/freezing-proxy";
import { eventually } from "../support/wait";
import { serve } from "./support";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function testApp(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ sources: fakeSources(), env: { READY_TIMEOUT_MS: "500", ...env } });
  cleanups.push(() => t.close());
  return t;
}

async function ready(t: { app: App; api: TestApp["api"] }) {
  const server = await serve(t as TestApp);
  try {
    return await fetch(server.url("/api/ready"));
  } finally {
    await server.close();
  }
}

function expectNoInternals(text: string) {
  for (const leak of [
    /ECONN|ETIMEDOUT|57P0/,
    /127\.0\.0\.1|localhost/,
    /postgres/i,
    /select|__drizzle/i,
    /\bat \S+:\d+/,
  ])
    expect(text).not.toMatch(leak);
}

it("database closed: 503 naming database (and migrations, which need it)", async () => {
  const t = await testApp();
  await t.app.database.close();
  const res = await ready(t);
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("2");
  expect(res.headers.get("x-request-id")).toBeTruthy();
  const text = await res.clone().text();
  const problem = await problemOf(res);
  expect(problem).toMatchObject({ status: 503, code: "service_unavailable" });
  expect(problem.detail).toBe(
    "Not ready: database (the database does not answer); migrations (database migrations are not all applied).",
  );
  expectNoInternals(text);
});

it("PostgreSQL frozen (unreachable, connections hang): 503 within the check's bound, ready again when it answers", async () => {
  const t = await testApp();
  const target = new URL(t.testDb.url);
  const proxy = await createFreezingProxy(target.hostname, Number(target.port || 5432));
  cleanups.push(() => proxy.close());
  const url = new URL(target);
  url.host = `127.0.0.1:${proxy.port}`;
  const database = await openDatabase({
    url: url.toString(),
    postgres: { poolSize: 2, connectTimeoutMs: 1000, poolWaitMs: 2000, queryTimeoutMs: 1000 },
  });
  const env = { READY_TIMEOUT_MS: "500", LOG_LEVEL: "silent" };
  const app = await createApp({ config: loadConfig(env), database, sources: fakeSources(), workers: false, env });
  cleanups.push(() => app.close());
  cleanups.push(async () => proxy.thaw());
  expect((await ready({ app, api: t.api })).status).toBe(200);
  proxy.freeze();
  const res = await ready({ app, api: t.api });
  expect(res.status).toBe(503);
  const text = await res.clone().text();
  expect((await problemOf(res)).detail).toMatch(/^Not ready: database \(the database does not answer\)/);
  expectNoInternals(text);
  proxy.thaw();
  await eventually(
    "ready again after the database answers",
    async () => (await ready({ app, api: t.api })).status === 200,
  );
});

it("a migration not applied: 503 naming migrations only", async () => {
  const t = await testApp();
  await t.app.db.execute(
    sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
  );
  const res = await ready(t);
  expect(res.status).toBe(503);
  expect((await problemOf(res)).detail).toBe("Not ready: migrations (database migrations are not all applied).");
});

it("the queue stopped (a shutdown under way): 503 naming the queue", async () => {
  const t = await testApp();
  await t.app.queue.stop({ graceful: false, wait: true, timeout: 2000 });
  await eventually("the queue reported stopped", async () => (await ready(t)).status === 503);
  expect((await problemOf(await ready(t))).detail).toBe("Not ready: queue (the job queue is not running).");
});
