import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { createTestDatabase, type TestDatabase } from "@/test/support/database";
import { PROVIDERS } from "@/lib/enrichment/sources/types";
import { budgetOf, DEFAULT_REGISTER_RATES, registerBudgets, registerRates } from "./budgets";

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

  it("admit the rate per second, then hold the next request until a slot frees; an abort ends the wait", async () => {
    const budget = registerBudgets(database.db, { aragon: 3 });
    const never = new AbortController().signal;
    expect(await Promise.all([1, 2, 3].map(() => budget.take("aragon-gaodcore", never)))).toEqual([true, true, true]);
    let fourth: boolean | undefined;
    const waiting = budget.take("aragon-gaodcore", never).then((ok) => (fourth = ok));
    for (let i = 0; i < 20; i++) await turn();
    expect(fourth).toBeUndefined();
    const impatient = new AbortController();
    const fifth = budget.take("aragon-gaodcore", impatient.signal);
    impatient.abort();
    await waiting;
    expect(fourth).toBe(true);
    expect(await fifth).toBe(false);
    // Another register's budget is its own; providers without a budget are never held.
    expect(await budget.take(PROVIDERS.catastro, never)).toBe(true);
    expect(await budget.take(PROVIDERS.sandbox, never)).toBe(true);
  });
});
