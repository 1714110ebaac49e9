import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema, type Database } from "@/lib/db";
import { createTestDatabase, type TestDatabase } from "@/test/support/database";
import { setTimeout as sleep } from "node:timers/promises";
import { liveClient } from "@/lib/enrichment/sources/http";
import { PROVIDERS, type SourceOutcome } from "@/lib/enrichment/sources/types";
import { budgetOf, DEFAULT_REGISTER_RATES, registerBudgets, registerRates, SEND_WITHIN_MS } from "./budgets";

let testDb: TestDatabase;
let database: Database;
beforeAll(async () => {
  testDb = await createTestDatabase();
  database = testDb.database;
});
afterAll(() => testDb.drop());

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("register budgets", () => {
  it("give every register asked over the network a default rate", () => {
    for (const provider of [PROVIDERS.catastro, "icaen-socrata", "gva-wfs", "gva-gesiee", "aragon-gaodcore"]) {
      expect(DEFAULT_REGISTER_RATES[budgetOf(provider)], provider).toBeGreaterThan(0);
    }
    expect(budgetOf("gva-wfs")).toBe(budgetOf("gva-gesiee")); // one host, one budget
  });

  it("take REGISTER_RATE_LIMITS over the defaults and refuse unknown registers or rates", () => {
    expect(registerRates({ catastro: 20 })).toMatchObject({ catastro: 20, icaen: DEFAULT_REGISTER_RATES.icaen });
    expect(() => registerRates({ catastr: 5 })).toThrow(/unknown registers \(catastr\); known: .*catastro/);
    expect(() => registerRates({ catastro: 0 })).toThrow(/at least 1/);
  });

  it("grant a lone request at once and the next one a paced gap later; an abort ends the wait", async () => {
    const budget = registerBudgets(database.db, { aragon: 3 }, 0.2);
    const never = new AbortController().signal;
    const first = await budget.take("aragon-gaodcore", "interactive", never);
    expect(first).toBeGreaterThan(performance.now()); // to be sent within SEND_WITHIN_MS
    let second: number | null | undefined;
    const waiting = budget.take("aragon-gaodcore", "interactive", never).then((by) => (second = by));
    for (let i = 0; i < 20; i++) await turn();
    expect(second).toBeUndefined();
    const impatient = new AbortController();
    const third = budget.take("aragon-gaodcore", "interactive", impatient.signal);
    impatient.abort();
    await waiting;
    // A paced gap (1.2 s / 3) later, less how far it may be dated back and the round trips' jitter.
    expect(second! - first!).toBeGreaterThan(1200 / 3 - SEND_WITHIN_MS);
    expect(await third).toBeNull();
    // Another register's budget is its own; providers without a budget are never held.
    expect(await budget.take(PROVIDERS.catastro, "durable", never)).not.toBeNull();
    expect(await budget.take(PROVIDERS.sandbox, "durable", never)).toBe(Number.POSITIVE_INFINITY);
  });

  it("grant on a row an earlier version's sliding window wrote (a log of hits, maybe one)", async () => {
    const { rateLimitWindows: w } = schema;
    const hits = [Date.now() - 5000];
    await database.db
      .insert(w)
      .values({ bucket: "register:catastro", hits })
      .onConflictDoUpdate({ target: w.bucket, set: { hits } });
    const budget = registerBudgets(database.db, {}, 0.2);
    expect(await budget.take(PROVIDERS.catastro, "durable", AbortSignal.timeout(5000))).not.toBeNull();
  });

  it("let no more than the rate be sent in any one second, however many processes and takers", async () => {
    const RATE = 5;
    // Three processes (budgets of their own on one database), each with durable and interactive
    // lookups under a cap of 2 in flight, so that some grants wait for a place and go stale.
    const sent: number[] = [];
    const clients = [1, 2, 3].map(() =>
      liveClient({ budget: registerBudgets(database.db, { icaen: RATE }, 0.2), maxConcurrent: 2 }),
    );
    const fetch = async (): Promise<SourceOutcome<number>> => {
      sent.push(performance.now()); // the register, as it is sent to
      await sleep(30 + Math.random() * 120);
      return { kind: "found", data: 1, provider: "icaen-socrata" };
    };
    let key = 0;
    const taker = async (client: (typeof clients)[number], trigger: "inline" | "job") => {
      for (let i = 0; i < 3; i++) {
        const outcome = await client.ask(
          `k${key++}`,
          { signal: AbortSignal.timeout(60_000), trigger },
          "icaen-socrata",
          fetch,
        );
        expect(outcome.kind).toBe("found");
      }
    };
    await Promise.all(clients.flatMap((client) => [0, 1, 2, 3].map((n) => taker(client, n % 2 ? "inline" : "job"))));
    expect(sent).toHaveLength(36);
    const sorted = sent.sort((a, b) => a - b);
    let most = 0;
    for (let i = 0, j = 0; i < sorted.length; i++) {
      while (sorted[i]! - sorted[j]! >= 1000) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBeLessThanOrEqual(RATE);
  }, 60_000);

  it("grant a create promptly while durable runs of its own process and others saturate the budget", async () => {
    const budgets = [1, 2].map(() => registerBudgets(database.db, { gva: 10 }, 0.2));
    const saturating = new AbortController();
    let durable = 0;
    // 40 durable waiters: a create queued behind them would wait 40 paced gaps, 6 s.
    const runs = budgets.flatMap((budget) =>
      Array.from({ length: 20 }, async () => {
        while ((await budget.take("gva-wfs", "durable", saturating.signal)) !== null) durable++;
      }),
    );
    await sleep(1000);
    expect(durable).toBeGreaterThan(0);
    try {
      for (const budget of budgets) {
        for (let i = 0; i < 3; i++) {
          // The create's deadline, doubled for a busy machine.
          expect(await budget.take("gva-wfs", "interactive", AbortSignal.timeout(3000))).not.toBeNull();
        }
      }
    } finally {
      saturating.abort();
      await Promise.all(runs);
    }
  }, 60_000);
});
