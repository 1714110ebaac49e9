// Waiting for what the system does by itself (a worker finishing a job, a webhook arriving), up to
// a bound on correctness (NEVER_MS), not on speed.
import { vi } from "vitest";
import { NEVER_MS } from "./bounds";

/**
 * Calls `check` every `intervalMs` (never two at once) until it returns a truthy value, and
 * resolves with that value; rejects with `what` when NEVER_MS (or `timeoutMs`) passes first, and
 * with check's own error if it throws.
 */
export async function eventually<T>(
  what: string,
  check: () => T | Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number } = {},
) {
  const timeout = options.timeoutMs ?? NEVER_MS;
  try {
    return await vi.waitUntil(check, { timeout, interval: options.intervalMs ?? 250 });
  } catch (error) {
    if ((error as Error).message === "Timed out in waitUntil!")
      throw new Error(`never happened (within ${timeout} ms): ${what}`);
    throw error;
  }
}
