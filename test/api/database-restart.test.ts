import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import net from "node:net";
import { inArray, sql } from "drizzle-orm";
import { openDatabase, rowsOf, schema, type Database } from "@/lib/db";
import { STATUS_OF_CODE, toDomainError } from "@/lib/partner-api/errors";

/** toDomainError's log, by message: an outage is reported as one. */
const reported: string[] = [];
const quiet = { error: (_fields: Record<string, unknown>, message: string) => void reported.push(message) };
import { checkLetters } from "@/lib/cadastral-reference";
import type { Sources } from "@/lib/enrichment/sources/types";
import { createTestApp, newPartnerKey, post, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { createPgCluster, type PgCluster } from "../support/pg-cluster";
import { NEVER_MS } from "../support/bounds";
import { eventually } from "../support/wait";
import { countBy } from "../support/count-by";

// PostgreSQL crashes under load and comes back: while it is down every create answers 503
// problem+json with Retry-After (never a 500, never a hang), the app recovers by itself, nothing
// it answered 201 for is lost, and the workers finish what was left enriching.
// It runs on a private cluster of its own, so the shared server is never restarted.

const CLIENTS = 6;
/**
 * No answer within this long is a hang: every wait of a request is bounded (connecting 5 s, the
 * pool 30 s, a query 30 s), and an outage is answered at the first of them.
 */
const ANSWER_BOUND_MS = NEVER_MS;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number | "hang";
  startedAt: number;
  endedAt: number;
  contentType?: string | null;
  retryAfter?: string | null;
  body?: { code?: string; property_id?: string; status?: string };
}

let reference = 0;
/** A new valid unit reference on every call. */
function nextReference() {
  const n = reference++;
  const first18 = String(Math.floor(n / 9000)).padStart(7, "0") + "VK3799G" + String((n % 9000) + 1).padStart(4, "0");
  return first18 + checkLetters(first18);
}

/**
 * Fake registers where every third property's cadastre misses the inline deadline on its first try,
 * so its durable job has to finish it; a job run's lookup takes a second, so some runs are in the
 * middle of their work at the crash (`jobRunsInFlight`).
 */
function slowSources() {
  const fast = fakeSources().test;
  const state = { jobRunsInFlight: 0 };
  const sources: Sources = {
    ...fast,
    cadastre: {
      async lookup(input) {
        const unit = Number(input.reference.slice(14, 18));
        if (unit % 3 === 0 && input.attempt === 1) {
          return new Promise((resolve) =>
            input.signal.addEventListener("abort", () => resolve({ kind: "error", code: "timeout", message: "slow" })),
          );
        }
        if (input.attempt > 1) {
          state.jobRunsInFlight++;
          await sleep(1000).finally(() => state.jobRunsInFlight--);
        }
        return fast.cadastre.lookup(input);
      },
    },
  };
  return { state, sources: { test: sources, live: sources } };
}

describe("PostgreSQL restarted under load", () => {
  let cluster: PgCluster | undefined;
  let database: Database | undefined;
  let t: TestApp | undefined;
  let closed = false;
  const registers = slowSources();
  // Errors that escape everything (an 'error' event nobody listens to, a floating rejection) would
  // crash a server process; here they are collected.
  const escaped: unknown[] = [];
  const collect = (error: unknown) => escaped.push(error);
  beforeAll(async () => {
    process.on("uncaughtException", collect);
    process.on("unhandledRejection", collect);
    cluster = await createPgCluster();
    database = await openDatabase({ url: cluster.url, postgres: { poolSize: 10 } });
    const env = {
      ENRICHMENT_DEADLINE_MS: "300",
      ENRICHMENT_RETRY_SCHEDULE_TEST: "1,1,1,1,1,1",
      JOB_POLL_SECONDS: "0.5",
      JOB_EXPIRE_SECONDS: "3",
      JOB_MAINTENANCE_SECONDS: "1",
      RATE_LIMIT_WRITES: "1000000",
    };
    t = await createTestApp({
      testDb: { database, url: cluster.url, drop: async () => {} },
      workers: true,
      sources: registers.sources,
      env,
    });
  });
  afterAll(async () => {
    try {
      // Bounded: a pool that never ends (a lost client) must not keep the cluster alive.
      if (!closed) await Promise.race([t?.close().then(() => database?.close()), sleep(ANSWER_BOUND_MS)]);
    } finally {
      await cluster?.destroy();
      process.off("uncaughtException", collect);
      process.off("unhandledRejection", collect);
    }
  });

  it("answers 503 while it is down, recovers by itself and loses no accepted property", async () => {
    const { app, api } = t!;
    const { key } = await newPartnerKey(app);
    // Every 503 and every failed worker poll logs a line: keep them out of the test output.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});

    const answers: Answer[] = [];
    let stopped = false;
    const client = async () => {
      while (!stopped) {
        const startedAt = Date.now();
        const request = api.createProperty(
          post("/properties", { cadastral_reference: nextReference() }, { "X-API-Key": key }),
        );
        const answer = await Promise.race([
          request.then(
            async (res): Promise<Answer> => ({
              status: res.status,
              startedAt,
              endedAt: Date.now(),
              contentType: res.headers.get("content-type"),
              retryAfter: res.headers.get("retry-after"),
              body: await res.json(),
            }),
          ),
          sleep(ANSWER_BOUND_MS).then((): Answer => ({ status: "hang", startedAt, endedAt: Date.now() })),
        ]);
        answers.push(answer);
        await sleep(20);
      }
    };
    let clients: Promise<void>[] = [];
    let runsAtCrash = 0;
    let crashedAt = 0;
    let restartingAt = 0;
    try {
      clients = Array.from({ length: CLIENTS }, client);
      // The first durable runs are under way (deadline + 1 s ± jitter after their create).
      await eventually("a durable run is under way", () => registers.state.jobRunsInFlight > 0, { intervalMs: 50 });
      runsAtCrash = registers.state.jobRunsInFlight;
      await cluster!.crash();
      crashedAt = Date.now();
      await sleep(4000);
      restartingAt = Date.now();
      await cluster!.start();
      // Recovery: creates succeed again without touching the app.
      const restartedAt = Date.now();
      await eventually(
        "a create succeeds after the restart",
        () => answers.some((a) => a.status === 201 && a.startedAt > restartedAt),
        { intervalMs: 100 },
      );
      const recoveredAt = Date.now();
      await sleep(3000);
      await eventually(
        "creates are answered after the recovery",
        () => answers.filter((a) => a.startedAt > recoveredAt).length > CLIENTS,
        { intervalMs: 100 },
      );
      stopped = true;
      await Promise.all(clients);

      const summary = countBy(answers, (a) => String(a.status));
      expect(
        answers.filter((a) => a.status === "hang"),
        JSON.stringify(summary),
      ).toEqual([]);
      expect(
        answers.filter((a) => a.status !== 201 && a.status !== 503),
        JSON.stringify(summary),
      ).toEqual([]);
      for (const a of answers.filter((a) => a.status === 503)) {
        expect(a.contentType).toMatch(/^application\/problem\+json/);
        expect(a.body?.code).toBe("service_unavailable");
        expect(a.retryAfter).toMatch(/^[1-9]\d*$/);
      }
      const during = answers.filter((a) => a.startedAt > crashedAt && a.endedAt < restartingAt);
      expect(during.length).toBeGreaterThan(CLIENTS);
      expect(during.every((a) => a.status === 503)).toBe(true);
      expect(answers.some((a) => a.status === 201 && a.endedAt < crashedAt)).toBe(true);
      expect(runsAtCrash).toBeGreaterThan(0);
      // Once recovered, it stays recovered: every create after the first success is a 201.
      const after = answers.filter((a) => a.startedAt > recoveredAt);
      expect(after.length).toBeGreaterThan(CLIENTS);
      expect(after.every((a) => a.status === 201)).toBe(true);
    } finally {
      stopped = true;
      await Promise.all(clients);
      logged.mockRestore();
    }

    // Every 201 is stored with its three source rows.
    const accepted = answers.filter((a) => a.status === 201).map((a) => a.body!.property_id!);
    const leftEnriching = answers
      .filter((a) => a.status === 201 && a.body!.status === "enriching")
      .map((a) => a.body!.property_id!);
    expect(leftEnriching.length).toBeGreaterThan(0);
    const { properties, enrichmentSources, events } = schema;
    const stored = await app.db.select({ id: properties.id }).from(properties).where(inArray(properties.id, accepted));
    expect(stored.length).toBe(accepted.length);
    const sourceRows = rowsOf<{ n: number }>(
      await app.db.execute(
        sql`select count(*)::int as n from ${enrichmentSources} where ${inArray(enrichmentSources.propertyId, accepted)}`,
      ),
    )[0]!.n;
    expect(sourceRows).toBe(3 * accepted.length);

    // The workers survive the restart: every property left enriching reaches its final state, once.
    const pending = async () =>
      (
        await app.db
          .select({ id: properties.id })
          .from(properties)
          .where(sql`${inArray(properties.id, accepted)} and ${properties.status} = 'enriching'`)
      ).length;
    await eventually("every property left enriching is final", async () => (await pending()) === 0, {
      intervalMs: 500,
    });
    const finals = await app.db
      .select({ status: properties.status })
      .from(properties)
      .where(inArray(properties.id, accepted));
    expect(new Set(finals.map((p) => p.status))).toEqual(new Set(["enriched"]));
    const announced = await app.db
      .select({ propertyId: events.propertyId })
      .from(events)
      .where(inArray(events.propertyId, leftEnriching));
    expect(announced.length).toBe(leftEnriching.length);
    expect(new Set(announced.map((e) => e.propertyId)).size).toBe(leftEnriching.length);

    // Every pooled client went back to the pool (closing waits for all of them): none was lost to
    // the crash, so the pool keeps its full size outage after outage.
    closed = true;
    await t!.close();
    const ending = await Promise.race([
      database!.close().then(() => "closed"),
      sleep(ANSWER_BOUND_MS).then(() => "a client was never released"),
    ]);
    expect(ending).toBe("closed");
    expect(escaped.map((e) => (e as Error).stack ?? String(e))).toEqual([]);
  });
});

// The same bound when the server hangs instead of crashing (frozen, or a half-open network): a
// connection that never completes times out and is a 503, like a refused one. No PostgreSQL needed.
it("a server that accepts connections but never answers is a 503 within the connection timeout, not a hang", async () => {
  const sockets: net.Socket[] = [];
  const silent = net.createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const url = `postgres://postgres@127.0.0.1:${(silent.address() as net.AddressInfo).port}/postgres`;
    const outcome = await Promise.race([
      openDatabase({ url }).then(
        () => "opened",
        (error: unknown) => error,
      ),
      sleep(ANSWER_BOUND_MS).then(() => "hang"),
    ]);
    expect(outcome).toBeInstanceOf(Error);
    expect(STATUS_OF_CODE[toDomainError(outcome, "request", quiet).code]).toBe(503);
    expect(reported.at(-1)).toBe("database unavailable");
  } finally {
    logged.mockRestore();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});
