// A change made from the portal or the console, with its row in the security history: the one way
// both write it (lib/audit's `audited`), and the one order when a budget counts it first.
import { audited, type Actor, type AuditEntry } from "@/lib/audit";
import type { DbOrTx } from "@/lib/db";
import type { WriteBudget } from "@/lib/domain";
import { spent, unlessRefused } from "@/lib/rate-limit";
import type { App } from "./app";

/** `change` and its history row in one transaction (a row when `entry` says what it did); the log line after. */
export const recordedChange = <T>(
  app: App,
  actor: Actor,
  change: (tx: DbOrTx) => Promise<T>,
  entry: (result: T) => AuditEntry | null,
): Promise<T> =>
  audited(app, actor, async (tx) => {
    const result = await change(tx);
    return { result, entry: entry(result) };
  });

/**
 * The same, counted on `budget` first, outside the transaction (so a request never holds two pooled
 * connections at once): what it made, or the budget's refusal, with nothing changed.
 */
export const countedChange = <T>(
  app: App,
  actor: Actor,
  budget: WriteBudget,
  change: (tx: DbOrTx) => Promise<T>,
  entry: (result: T) => AuditEntry | null,
) => unlessRefused(spent(budget, () => recordedChange(app, actor, change, entry)));
