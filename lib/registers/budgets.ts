// Register budgets: requests per second the workers may send to each public register, shared by
// every process through the database (a sliding one-second window on the database's clock, the
// write limiter's own statement), so a portfolio of 100,000 references never floods a register
// however many workers run. Only durable runs wait for a budget (lib/enrichment/sources/http.ts);
// a create's inline lookups are few (each partner's write limit bounds them) and never wait.
import { setTimeout as sleep } from "node:timers/promises";
import type { DbOrTx } from "@/lib/db";
import type { RegisterBudget } from "@/lib/enrichment/sources/types";
import { databaseRateLimiter } from "@/lib/rate-limit";
import { providerRegister, REGISTERS } from "./regions";

/**
 * Requests per second per register when REGISTER_RATE_LIMITS does not say. None of these registers
 * publishes a limit: Catastro reserves the right to block abusive clients, and Socrata throttles
 * calls without an app token from a shared pool; these stay well inside what one careful client
 * sends.
 */
export const DEFAULT_REGISTER_RATES: Readonly<Record<string, number>> = Object.fromEntries(
  REGISTERS.flatMap((r) => (r.budget ? [[r.budget.name, r.budget.rate]] : [])),
);

/** The budget a provider's requests count against: its register's (registers on one host share one). */
export const budgetOf = (provider: string) => providerRegister(provider)?.budget?.name ?? provider;

/** The rates in force: the defaults, with `overrides` (REGISTER_RATE_LIMITS); an unknown register stops the start. */
export function registerRates(overrides: Record<string, number>): Record<string, number> {
  const unknown = Object.keys(overrides).filter((name) => !(name in DEFAULT_REGISTER_RATES));
  if (unknown.length) {
    throw new Error(
      `REGISTER_RATE_LIMITS names unknown registers (${unknown.join(", ")}); known: ${Object.keys(DEFAULT_REGISTER_RATES).join(", ")}.`,
    );
  }
  const bad = Object.entries(overrides).filter(([, rate]) => !Number.isInteger(rate) || rate < 1);
  if (bad.length)
    throw new Error(
      `REGISTER_RATE_LIMITS wants whole requests per second of at least 1 (${bad.map(([n]) => n).join(", ")}).`,
    );
  return { ...DEFAULT_REGISTER_RATES, ...overrides };
}

export function registerBudgets(db: DbOrTx, overrides: Record<string, number> = {}): RegisterBudget {
  const rates = registerRates(overrides);
  const limiters = new Map(Object.entries(rates).map(([name, rate]) => [name, databaseRateLimiter(db, rate, 1)]));
  // One waiter per register and process asks the database at a time; the others queue behind it.
  const turns = new Map<string, Promise<unknown>>();

  async function acquire(name: string, signal: AbortSignal): Promise<boolean> {
    const limiter = limiters.get(name)!;
    while (!signal.aborted) {
      const decision = await limiter.hit(`register:${name}`);
      if (decision.allowed) return true;
      try {
        await sleep(decision.resetMs + 1, undefined, { signal });
      } catch {
        return false;
      }
    }
    return false;
  }

  return {
    take(provider, signal) {
      const name = budgetOf(provider);
      if (!limiters.has(name)) return Promise.resolve(true);
      const turn = (turns.get(name) ?? Promise.resolve()).then(() => acquire(name, signal));
      turns.set(
        name,
        turn.catch(() => {}),
      );
      return turn;
    },
  };
}
