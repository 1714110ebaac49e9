// A user's signed-in browsers. Each sign-in starts a session row that the session cookie names; a
// page or action finds it alive (not ended, younger than the cookie's life) or the request is signed
// out. So a user sees their sessions and ends one or all others, and a sign-out ends its own only.
import Bowser from "bowser";
import { and, desc, eq, gt, isNull, lt, ne, sql } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";
import { isUuid } from "@/lib/domain";

const { userSessions } = schema;
export type SessionRow = typeof userSessions.$inferSelect;

/** How long a session lives after its sign-in (the session cookie's own life). */
export const SESSION_MAX_AGE_SECONDS = 8 * 3600;
/** A session's last sighting is written at most this often (a page view is not worth a write each). */
const SEEN_EVERY_SECONDS = 60;
/** Rows of sessions over for this long go, at the user's next sign-in. */
const KEPT_DAYS = 30;
const MAX_USER_AGENT = 300;

const alive = () =>
  and(
    isNull(userSessions.endedAt),
    gt(userSessions.createdAt, sql`now() - make_interval(secs => ${SESSION_MAX_AGE_SECONDS})`),
  );

/** A new session of the user, from this browser and address; the user's long-over sessions go. */
export async function startSession(
  db: DbOrTx,
  userId: string,
  client: { userAgent: string | null; address: string | null },
): Promise<string> {
  await db
    .delete(userSessions)
    .where(
      and(
        eq(userSessions.userId, userId),
        lt(userSessions.createdAt, sql`now() - make_interval(days => ${KEPT_DAYS})`),
      ),
    );
  const [row] = await db
    .insert(userSessions)
    .values({ userId, userAgent: client.userAgent?.slice(0, MAX_USER_AGENT) || null, address: client.address })
    .returning({ id: userSessions.id });
  return row!.id;
}

/** Is session `id` of the user alive? Marks it seen (at most once a minute) when it is. */
export async function sessionAlive(db: DbOrTx, userId: string, id: unknown): Promise<boolean> {
  if (typeof id !== "string" || !isUuid(id)) return false;
  const mine = and(eq(userSessions.id, id), eq(userSessions.userId, userId), alive());
  const [row] = await db.select({ lastSeenAt: userSessions.lastSeenAt }).from(userSessions).where(mine);
  if (!row) return false;
  if (Date.now() - row.lastSeenAt.getTime() > SEEN_EVERY_SECONDS * 1000)
    await db.update(userSessions).set({ lastSeenAt: sql`now()` }).where(mine);
  return true;
}

/** The user's live sessions, the most recently seen first. */
export async function listSessions(db: DbOrTx, userId: string): Promise<SessionRow[]> {
  return db
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), alive()))
    .orderBy(desc(userSessions.lastSeenAt), desc(userSessions.createdAt));
}

/** Ends one session of the user (false when it is not theirs or already over). */
export async function endSession(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const ended = await db
    .update(userSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(userSessions.id, id), eq(userSessions.userId, userId), alive()))
    .returning({ id: userSessions.id });
  return ended.length > 0;
}

/** Ends every session of the user but `keep` (this browser's); how many it ended. */
export async function endOtherSessions(db: DbOrTx, userId: string, keep: string): Promise<number> {
  const ended = await db
    .update(userSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(userSessions.userId, userId), alive(), isUuid(keep) ? ne(userSessions.id, keep) : undefined))
    .returning({ id: userSessions.id });
  return ended.length;
}

/** "Firefox 132 on Linux", from a user agent; "Unknown browser" when it names none. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split(".")[0]].filter(Boolean).join(" ");
  const os = parsed.os.name;
  if (!browser) return os ? `Unknown browser on ${os}` : "Unknown browser";
  return os ? `${browser} on ${os}` : browser;
}
