// Brute-force throttling of sign-in. Atomic without locks: an attempt is written down *before* its
// password is checked, and only then are the attempts on record counted, so of any number of
// concurrent guesses each sees all that were written before it counted. Per account it slows down
// rather than locks out (after a few failures each further attempt waits longer, up to a minute).
// A browser that signed in to the account before (a device cookie, ./device.ts) is throttled on its
// own failures only: an attacker's guesses slow the clients the account has never seen, not the
// owner. A client address that keeps failing (known only behind a trusted proxy) is refused for the window.
import { and, eq, gt, inArray, lt, notInArray, or } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";

export const FREE_FAILURES_PER_EMAIL = 5;
export const MAX_DELAY_MS = 60_000;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const WINDOW_MS = 15 * 60_000;

const { signInFailures } = schema;
const emailKey = (email: string) => `email:${email}`;

/** Who is signing in: the client's address (behind a trusted proxy) and its device, when the account knows it. */
export interface SignInClient {
  address: string | null;
  /** The nonce of the account's device cookie this browser holds (./device.ts). */
  device?: string | null;
}

/** The attempt's own key (the device's, else the account's shared one by the untrusted), and the address's. */
const keysFor = (email: string, client: SignInClient) => [
  client.device ? `device:${client.device}` : emailKey(email),
  ...(client.address ? [`ip:${client.address}`] : []),
];

/** How long after the latest failure the next attempt for an email must wait. */
export const delayAfter = (failures: number) =>
  failures < FREE_FAILURES_PER_EMAIL ? 0 : Math.min(MAX_DELAY_MS, 1000 * 2 ** (failures - FREE_FAILURES_PER_EMAIL));

export type AttemptStart = { ok: true; ids: number[] } | { ok: false; retryAfterMs: number };

/** Records an attempt and decides whether its password may be checked. */
export async function beginAttempt(
  db: DbOrTx,
  email: string,
  client: SignInClient,
  now = new Date(),
): Promise<AttemptStart> {
  const keys = keysFor(email, client);
  const [own] = keys;
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
  const forOwn = earlier.filter((r) => r.key === own).map((r) => r.at.getTime());
  const forAddress = earlier.filter((r) => r.key !== own).map((r) => r.at.getTime());
  const waits = [
    forOwn.length ? Math.max(...forOwn) + delayAfter(forOwn.length) - now.getTime() : 0,
    forAddress.length >= MAX_FAILURES_PER_ADDRESS ? Math.min(...forAddress) + WINDOW_MS - now.getTime() : 0,
  ];
  const retryAfterMs = Math.max(...waits);
  if (retryAfterMs <= 0) return { ok: true, ids: mine };
  // A refused attempt checked nothing: it does not count, nor push the wait further out.
  await db.delete(signInFailures).where(inArray(signInFailures.id, mine));
  return { ok: false, retryAfterMs };
}

/**
 * After the check: a success clears its own key's failures (the device's, or the account's shared
 * ones) and this attempt; a failure stays on record. A known device's success leaves the untrusted
 * clients' count alone: an attacker's guesses stay slowed while the owner signs in.
 */
export async function endAttempt(
  db: DbOrTx,
  email: string,
  client: SignInClient,
  ids: number[],
  succeeded: boolean,
  now = new Date(),
): Promise<void> {
  if (succeeded) {
    const [own] = keysFor(email, client);
    await db.delete(signInFailures).where(or(eq(signInFailures.key, own!), inArray(signInFailures.id, ids)));
  }
  // Old rows are of no use; keep the table small.
  await db.delete(signInFailures).where(lt(signInFailures.at, new Date(now.getTime() - 2 * WINDOW_MS)));
}

/**
 * Headers the product's front door (server/http.ts) sets on what it passes to Next.js: the socket's
 * address, and the process's token vouching for it (a client's own copies are replaced).
 */
export const FRONT_DOOR = { address: "x-finca-socket-address", token: "x-finca-front-door" } as const;

/**
 * Where a request came from (the sign-in and sign-up limits per address, a session's address): the
 * entry our proxies appended when `hops` are trusted, else the socket's as the front door saw it;
 * null when neither is known (`next start` alone: then only the limits per email and the global
 * sign-up cap hold).
 */
export function requestAddress(headers: Headers, hops: number, frontDoorToken: string | undefined): string | null {
  if (hops) return clientAddress(headers.get("x-forwarded-for"), hops);
  const vouched = !!frontDoorToken && headers.get(FRONT_DOOR.token) === frontDoorToken;
  return (vouched && headers.get(FRONT_DOOR.address)?.slice(0, 100)) || null;
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
