// Brute-force throttling of sign-in. Atomic without locks: an attempt is written down *before* its
// password is checked, and only then are the attempts on record counted, so of any number of
// concurrent guesses each sees all that were written before it counted. Per email it slows down
// rather than locks out (after a few failures each further attempt waits longer, up to a minute),
// so an attacker cannot keep the owner out for long; a client address that keeps failing (known
// only behind a trusted proxy) is refused for the window.
import { and, eq, gt, inArray, lt, notInArray, or } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";

export const FREE_FAILURES_PER_EMAIL = 5;
export const MAX_DELAY_MS = 60_000;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const WINDOW_MS = 15 * 60_000;

const { signInFailures } = schema;
const emailKey = (email: string) => `email:${email}`;
const keysFor = (email: string, address: string | null) => [emailKey(email), ...(address ? [`ip:${address}`] : [])];

/** How long after the latest failure the next attempt for an email must wait. */
export const delayAfter = (failures: number) =>
  failures < FREE_FAILURES_PER_EMAIL ? 0 : Math.min(MAX_DELAY_MS, 1000 * 2 ** (failures - FREE_FAILURES_PER_EMAIL));

export type AttemptStart = { ok: true; ids: number[] } | { ok: false; retryAfterMs: number };

/** Records an attempt and decides whether its password may be checked. */
export async function beginAttempt(
  db: DbOrTx,
  email: string,
  address: string | null,
  now = new Date(),
): Promise<AttemptStart> {
  const keys = keysFor(email, address);
  const mine = (
    await db
      .insert(signInFailures)
      .values(keys.map((key) => ({ key, at: now })))
      .returning({ id: signInFailures.id })
  ).map((r) => r.id);
  const earlier = await db
    .select({ key: signInFailures.key, at: signInFailures.at })
    .from(signInFailures)
    .where(
      and(
        inArray(signInFailures.key, keys),
        gt(signInFailures.at, new Date(now.getTime() - WINDOW_MS)),
        notInArray(signInFailures.id, mine),
      ),
    );
  const forEmail = earlier.filter((r) => r.key === emailKey(email)).map((r) => r.at.getTime());
  const forAddress = earlier.filter((r) => r.key !== emailKey(email)).map((r) => r.at.getTime());
  const waits = [
    forEmail.length ? Math.max(...forEmail) + delayAfter(forEmail.length) - now.getTime() : 0,
    forAddress.length >= MAX_FAILURES_PER_ADDRESS ? Math.min(...forAddress) + WINDOW_MS - now.getTime() : 0,
  ];
  const retryAfterMs = Math.max(...waits);
  if (retryAfterMs <= 0) return { ok: true, ids: mine };
  // A refused attempt checked nothing: it does not count, nor push the wait further out.
  await db.delete(signInFailures).where(inArray(signInFailures.id, mine));
  return { ok: false, retryAfterMs };
}

/** After the check: a success clears the email's failures (and this attempt); a failure stays on record. */
export async function endAttempt(
  db: DbOrTx,
  email: string,
  ids: number[],
  succeeded: boolean,
  now = new Date(),
): Promise<void> {
  if (succeeded)
    await db.delete(signInFailures).where(or(eq(signInFailures.key, emailKey(email)), inArray(signInFailures.id, ids)));
  // Old rows are of no use; keep the table small.
  await db.delete(signInFailures).where(lt(signInFailures.at, new Date(now.getTime() - 2 * WINDOW_MS)));
}

/** The client's address from X-Forwarded-For, trusting only the entries our own `hops` proxies appended. */
export function clientAddress(forwardedFor: string | null, hops: number): string | null {
  if (!hops || !forwardedFor) return null;
  const entries = forwardedFor
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return entries.length >= hops ? entries[entries.length - hops]!.slice(0, 100) : null;
}
