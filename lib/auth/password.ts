// Password hashing: argon2id (OWASP's first choice), via a prebuilt native binding. Each check costs
// ~20 MB and tens of milliseconds of CPU, so on public paths they go through a gate that caps how
// many run at once in the process: a flood of sign-ins waits or is refused, and the API keeps its
// latency.
import { hash, verify } from "@node-rs/argon2";
import pLimit from "p-limit";
import { DomainError } from "@/lib/domain";

const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum, not importable with isolatedModules) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export interface Passwords {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
}

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Unbounded: for the operator's CLI and bootstrap, which nobody outside can call. */
export const directPasswords: Passwords = { hash: hashPassword, verify: verifyPassword };

export const BUSY = "Too many sign-ins at this moment. Try again in a few seconds.";

/** At most `concurrent` checks at once; up to `queue` more wait; beyond that a `rate_limited` refusal. */
export function gatedPasswords(concurrent: number, queue: number, inner: Passwords = directPasswords): Passwords {
  const limit = pLimit(concurrent);
  const run = <T>(work: () => Promise<T>): Promise<T> => {
    if (limit.activeCount >= concurrent && limit.pendingCount >= queue)
      return Promise.reject(new DomainError("rate_limited", BUSY));
    return limit(work);
  };
  return {
    hash: (password) => run(() => inner.hash(password)),
    verify: (passwordHash, password) => run(() => inner.verify(passwordHash, password)),
  };
}
