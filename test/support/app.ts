import { afterAll, beforeAll } from "vitest";
// An App on a fresh test database, with its partner API handlers and helpers to call them.
import { createApp, type App } from "@/server/app";
import { loadConfig } from "@/lib/config";
import { decideLiveAccess } from "@/lib/partners/live";
import { createPartnerApi, type PartnerApi } from "@/lib/partner-api";
import { createApiKey } from "@/lib/api-keys";
import { createPartner } from "@/lib/partners";
import type { Mode } from "@/lib/domain";
import type { Logger } from "@/lib/observability/logger";
import type { Sources } from "@/lib/enrichment/sources/types";
import { createTestDatabase, type TestDatabase } from "./database";

export interface TestApp {
  app: App;
  api: PartnerApi;
  testDb: TestDatabase;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    sources?: Record<Mode, Sources>;
    workers?: boolean;
    testDb?: TestDatabase;
    logger?: Logger;
  } = {},
): Promise<TestApp> {
  const testDb = options.testDb ?? (await createTestDatabase());
  // Logs only what is wrong (a test that reads the logs passes a logger of its own).
  const env = { ENRICHMENT_DEADLINE_MS: "1500", JOB_POLL_SECONDS: "0.5", LOG_LEVEL: "warn", ...options.env };
  const app = await createApp({
    config: loadConfig(env),
    database: testDb.database,
    sources: options.sources,
    workers: options.workers ?? false,
    env,
    logger: options.logger,
  });
  return {
    app,
    // Every answer the suite sees is checked against the schema its operation declares.
    api: createPartnerApi({ ...app, validateReplies: true }),
    testDb,
    async close() {
      await app.queue.stop({ graceful: false, wait: true, timeout: 2000 }).catch(() => {});
      if (!options.testDb) await testDb.drop();
    },
  };
}

/** Makes `app` the process's App (server/app's getApp), for code that looks it up: the Next.js route. */
export function adoptApp(app: App): void {
  (globalThis as { [key: symbol]: unknown })[Symbol.for("finca.app")] = Promise.resolve(app);
}

let partnerCounter = 0;

/** Live mode granted to the partner, as an operator grants it (its live keys work only then). */
export const grantLive = (app: App, partnerId: string) => decideLiveAccess(app.db, partnerId, true, { waiting: false });

export async function newPartnerKey(app: App, mode: Mode = "test") {
  const partner = await createPartner(
    app.db,
    `Partner ${process.pid}-${++partnerCounter}-${Math.random().toString(36).slice(2, 8)}`,
  );
  if (mode === "live") await grantLive(app, partner.id);
  const { key, apiKey } = await createApiKey(app.db, { partnerId: partner.id, mode, name: "test key" });
  return { partner, key, apiKey };
}

export const BASE = "http://finca.test/api/v1/partner-api";

export function post(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(BASE + path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function patch(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(BASE + path, {
    method: "PATCH",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function get(path: string, headers: Record<string, string> = {}): Request {
  return new Request(BASE + path, { headers });
}

export async function problemOf(res: Response) {
  expectProblem(res);
  return (await res.json()) as {
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    request_id: string;
    errors?: { pointer?: string; parameter?: string; detail: string }[];
  };
}

function expectProblem(res: Response) {
  if (!res.headers.get("content-type")?.startsWith("application/problem+json")) {
    throw new Error(`expected problem+json, got ${res.headers.get("content-type")} (${res.status})`);
  }
}

/**
 * A test file's App on a fresh database with one partner's test key, created before its tests and
 * closed after them: `useTestApp(options, (ctx) => ({ t, key } = ctx))`.
 */
export function useTestApp(
  options: Parameters<typeof createTestApp>[0],
  receive: (ctx: { t: TestApp; key: string }) => void,
) {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp(options);
    receive({ t, key: (await newPartnerKey(t.app)).key });
  });
  afterAll(() => t?.close());
}
