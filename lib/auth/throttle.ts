// Brute-force throttling of sign-in: too many failures for one email, or from one client address,
// within the window → refused without checking the password.
import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";

export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const WINDOW_MS = 15 * 60_000;

const { signInFailures } = schema;
const keysFor = (email: string, address: string | null) => [`email:${email}`, ...(address ? [`ip:${address}`] : [])];

export async function isThrottled(db: DbOrTx, email: string, address: string | null, now = new Date()): Promise<boolean> {
  const rows = await db
    .select({ key: signInFailures.key, n: sql<number>`count(*)::int` })
    .from(signInFailures)
    .where(and(inArray(signInFailures.key, keysFor(email, address)), gt(signInFailures.at, new Date(now.getTime() - WINDOW_MS))))
    .groupBy(signInFailures.key);
  return rows.some((r) => r.n >= (r.key.startsWith("email:") ? MAX_FAILURES_PER_EMAIL : MAX_FAILURES_PER_ADDRESS));
}

export async function recordFailure(db: DbOrTx, email: string, address: string | null): Promise<void> {
  await db.insert(signInFailures).values(keysFor(email, address).map((key) => ({ key })));
  // Old rows are of no use; keep the table small.
  await db.delete(signInFailures).where(lt(signInFailures.at, new Date(Date.now() - 2 * WINDOW_MS)));
}

export async function clearFailures(db: DbOrTx, email: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.key, `email:${email}`));
}
