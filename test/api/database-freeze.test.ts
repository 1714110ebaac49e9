import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { createApp, type App } from "@/server/app";
import { loadConfig } from "@/lib/config";
import { openDatabase, type Database } from "@/lib/db";
import { STATUS_OF_CODE, toDomainError } from "@/lib/partner-api/errors";

/** toDomainError's log, by message: an outage is reported as one. */
const reported: string[] = [];
const quiet = { error: (_fields: Record<string, unknown>, message: string) => void reported.push(message) };
import { createPartnerApi } from "@/lib/partner-api";
import { checkLetters } from "@/lib/cadastral-reference";
import { createTestApp, newPartnerKey, post, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { createFreezingProxy, type FreezingProxy } from "../support/freezing-proxy";
import { NEVER_MS } from "../support/bounds";

// PostgreSQL freezes with connections open (a hung server, a failover, a network dropping packets):
// queries on open connections end at the query timeout as a 503, the connections that waited are
// discarded rather than reused, and the app serves again as soon as the server answers.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** An answer, or "hang" when none comes at all (every timeout below is 1 or 2 s). */
const within = <T>(promise: Promise<T>) => Promise.race([promise, sleep(NEVER_MS).then(() => "hang" as const)]);

let t: TestApp;
let proxy: FreezingProxy;
let database: Database;
let app: App;
let closed = false;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
  const target = new URL(t.testDb.url);
  proxy = await createFreezingProxy(target.hostname, Number(target.port || 5432));
  const url = new URL(target);
  url.host = `127.0.0.1:${proxy.port}`;
  database = await openDatabase({
    url: url.toString(),
    postgres: { poolSize: 1, connectTimeoutMs: 1000, poolWaitMs: 2000, queryTimeoutMs: 1000 },
  });
  const env = { ENRICHMENT_DEADLINE_MS: "1500" };
  app = await createApp({ config: loadConfig(env), database, sources: fakeSources(), workers: false, env });
});
afterAll(async () => {
  proxy.thaw();
  if (!closed) await app.close();
  await proxy.close();
  await t.close();
});

let n = 0;
const reference = () => {
  const first18 = "9398516VK3799G" + String(++n).padStart(4, "0");
  return first18 + checkLetters(first18);
};

it("a frozen server: 503 at the query timeout, no connection reused half-way, served again once it answers", async () => {
  const { key } = await newPartnerKey(t.app);
  const api = createPartnerApi(app);
  const create = () =>
    within(api.createProperty(post("/properties", { cadastral_reference: reference() }, { "X-API-Key": key })));
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    expect(((await create()) as Response).status).toBe(201);

    proxy.freeze();
    // A transaction on the pool's one (idle, connected) connection: its BEGIN times out.
    const inTransaction = await within(
      database.db
        .transaction((tx) => tx.execute(sql`select 1`))
        .then(
          () => "committed",
          (error: unknown) => error,
        ),
    );
    expect(inTransaction).toBeInstanceOf(Error);
    expect(STATUS_OF_CODE[toDomainError(inTransaction, "request", quiet).code]).toBe(503);
    expect(reported.at(-1)).toBe("database unavailable");
    // That connection was discarded: the next query opens a new one (which, frozen, times out
    // connecting) instead of waiting for a connection that never comes back to the pool.
    const acceptedBefore = proxy.accepted;
    const next = await within(
      database.db.execute(sql`select 1`).then(
        () => "answered",
        (error: unknown) => error,
      ),
    );
    expect(STATUS_OF_CODE[toDomainError(next, "request", quiet).code]).toBe(503);
    expect(reported.at(-1)).toBe("database unavailable");
    expect(proxy.accepted).toBeGreaterThan(acceptedBefore);
    // And the API answers 503 problem+json.
    const frozen = await create();
    expect(frozen).not.toBe("hang");
    expect((frozen as Response).status).toBe(503);
    expect((await (frozen as Response).json()).code).toBe("service_unavailable");

    proxy.thaw();
    expect(((await create()) as Response).status).toBe(201);
    // Every connection went back to the pool or was discarded: closing does not wait for one.
    closed = true;
    expect(await within(app.close().then(() => "closed"))).toBe("closed");
  } finally {
    logged.mockRestore();
  }
});
