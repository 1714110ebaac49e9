// Register budgets: requests per second each public register receives from us, shared by every
// process through the database (one row per register, on the database's clock), so neither a
// portfolio of 100,000 references nor single creates flood a register however many processes run.
// Every request counts, a create's inline lookups too; they come first: a durable run (portfolio
// items, retries) uses at most part of the budget and steps aside for a waiting create.
import { sql } from "drizzle-orm";
import { setTimeout as sleep } from "node:timers/promises";
import { bare, rowsOf, schema, type DbOrTx } from "@/lib/db";
import type { BudgetUse, RegisterBudget } from "@/lib/enrichment/sources/types";
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

/**
 * How long after its grant a request may still be sent (http.ts takes another grant past it). A
 * sliding window counted when grants are made let a register receive more than its rate in one
 * second: grants made at the end of one window and the start of the next arrive together once their
 * ways to the register differ. Grants are paced instead, at least (1 s + this) / rate apart, and
 * each request is sent within this of its grant, so any one second of sends holds grants of at most
 * 1 s + this: never more than the rate. The price: at most rate / 1.2 requests per second.
 */
export const SEND_WITHIN_MS = 200;
/**
 * How far a grant is dated back to its turn when its waiter reached the database late (the waiter
 * slept until its turn, then made a round trip): the pace loses no time to those round trips, and
 * the request must be sent that much sooner (the sends keep within SEND_WITHIN_MS of their dates).
 */
const DATED_BACK_MS = SEND_WITHIN_MS / 2;
/**
 * How long a create refused a grant holds durable runs back: the create asks again when its turn
 * comes (the next paced grant), and this covers that wake-up and round trip on a busy machine.
 */
const CLAIM_MS = 250;

const { rateLimitWindows: w } = schema;

/**
 * `rate` per register (REGISTER_RATE_LIMITS over the defaults); durable runs get at most
 * 1 - `interactiveShare` of it (REGISTER_INTERACTIVE_SHARE), and none while a create waits.
 */
export function registerBudgets(
  db: DbOrTx,
  overrides: Record<string, number>,
  interactiveShare: number,
): RegisterBudget {
  const gaps = new Map(
    Object.entries(registerRates(overrides)).map(([name, rate]) => {
      const interactive = (1000 + SEND_WITHIN_MS) / rate;
      // Whole milliseconds, rounded up: never shorter than the pace needs.
      return [name, { interactive: Math.ceil(interactive), durable: Math.ceil(interactive / (1 - interactiveShare)) }];
    }),
  );
  // Per register and use, one waiter of a process asks the database at a time, the others queue
  // behind it; a create never queues behind a portfolio's waiters. A request asking again (its
  // grant went stale) queues behind nobody: it holds a place among the requests in flight, and
  // behind the queue it would hold it for seconds while the grants after it went stale in turn.
  const turns = new Map<string, Promise<unknown>>();

  /**
   * One grant if the register's row allows it. The row's `hits` are [the last grant's date, until
   * when durable runs are held back for a waiting create] (ms, database clock). A grant needs its
   * gap since the last one, a durable one also the claim's end; a create refused claims its next
   * turn, writing a third element (the refusal's time) that tells its row from a grant's. `lateMs`:
   * how long before now the grant is dated.
   */
  async function ask(name: string, use: BudgetUse): Promise<{ granted: boolean; waitMs: number; lateMs: number }> {
    const gap = gaps.get(name)!;
    const now = sql`(select now from clock)`;
    // coalesce: a row the sliding window of earlier versions wrote may hold one time only.
    const heldUntil = sql`coalesce(${w.hits}[2], 0)`;
    // When this use's turn came: its gap after the last grant, for a durable run the claim's end too.
    const gapEnd = sql`${w.hits}[1] + ${gap[use]}::bigint`;
    const turn = use === "durable" ? sql`greatest(${gapEnd}, ${heldUntil})` : gapEnd;
    const open = sql`${now} >= ${turn}`;
    const dated = sql`greatest(${now} - ${DATED_BACK_MS}::bigint, ${turn})`;
    const claim = sql`greatest(${heldUntil}, ${w.hits}[1] + ${gap.interactive + CLAIM_MS}::bigint)`;
    const [row] = rowsOf<{ done: number[] | null; seen: number[] | null; now: number }>(
      await db.execute(sql`
        with clock as materialized (select (extract(epoch from clock_timestamp()) * 1000)::bigint as now),
        done as (
          insert into ${w} (${bare(w.bucket)}, ${bare(w.hits)})
          select ${`register:${name}`}::text, array[now, 0]::bigint[] from clock
          on conflict (${bare(w.bucket)}) do update
            set ${bare(w.hits)} = case when ${open} then array[${dated}, ${heldUntil}]
              else array[${w.hits}[1], ${claim}, ${now}] end
            ${use === "durable" ? sql`where ${open}` : sql``}
          returning ${w.hits})
        select (select hits from done) as done, (select now from clock) as now,
          (select ${w.hits} from ${w} where ${w.bucket} = ${`register:${name}`}) as seen`),
    );
    const now_ = Number(row!.now);
    if (row!.done?.length === 2) return { granted: true, waitMs: 0, lateMs: now_ - Number(row!.done[0]) };
    // A durable refusal reads the row as the statement began: a grant made since only wakes it early.
    const [granted = now_, claimed = 0] = (row!.done ?? row!.seen ?? []).map(Number);
    const until = Math.max(granted + gap[use], use === "durable" ? claimed : 0);
    return { granted: false, waitMs: Math.max(0, until - now_), lateMs: 0 };
  }

  async function acquire(name: string, use: BudgetUse, signal: AbortSignal): Promise<number | null> {
    while (!signal.aborted) {
      // Before the statement: the grant is made later, so its send is never later than this says.
      const asked = performance.now();
      const { granted, waitMs, lateMs } = await ask(name, use);
      if (granted) return asked + SEND_WITHIN_MS - lateMs;
      try {
        await sleep(waitMs + 1, undefined, { signal });
      } catch {
        return null;
      }
    }
    return null;
  }

  return {
    take(provider, use, signal, again) {
      const name = budgetOf(provider);
      if (!gaps.has(name)) return Promise.resolve(Number.POSITIVE_INFINITY);
      if (again) return acquire(name, use, signal);
      const key = `${name}:${use}`;
      const turn = (turns.get(key) ?? Promise.resolve()).then(() => acquire(name, use, signal));
      turns.set(
        key,
        turn.catch(() => {}),
      );
      return turn;
    },
  };
}
