// Self-service password reset by email (the sign-in page's "Forgot your password?"): a request is
// answered alike whether or not an account has the address (no account enumeration), throttled per
// address and per client before anything is looked up; an account's link carries a random token,
// stored hashed, that works once and for a short while; a reset ends every session of the user.
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";
import { passwordResetEmail, portalLink, queueEmails } from "@/lib/email";
import { hashToken } from "./accounts";
import { bump, findUserByEmail, normalizeEmail, revokeStanding, type User } from "./users";
import type { Passwords } from "./password";
import { checkEmail, checkPassword, refuse } from "./input";

const { passwordResets, users } = schema;

/** What every request is told (but a throttled one): nothing of whether the account exists. */
export const RESET_REQUESTED =
  "If an account has this address, we have emailed it a link to choose a new password. Check your inbox (and spam).";

/** The one answer to a request: the same for every address (or "throttled", for any address alike). */
export type ResetRequestAnswer = "sent" | "throttled";

export interface ResetRequestOptions {
  /** The origin the link points to. */
  base: string;
  ttlMinutes: number;
  /** Counts the request on the address's and the client's budgets: false when either is spent. */
  admit(email: string): Promise<boolean>;
}

/** A reset link emailed to the account of `email`, when there is one (a disabled one gets none). */
export async function requestPasswordReset(
  db: DbOrTx,
  email: string,
  options: ResetRequestOptions,
): Promise<ResetRequestAnswer> {
  checkEmail(email);
  const address = normalizeEmail(email);
  if (!(await options.admit(address))) return "throttled";
  const user = await findUserByEmail(db, address);
  if (!user || user.disabledAt) return "sent";
  const token = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    // Only the latest link works.
    await tx.delete(passwordResets).where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    const now = new Date();
    await tx.insert(passwordResets).values({
      userId: user.id,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + options.ttlMinutes * 60_000),
    });
    const link = portalLink(options.base, `/reset-password/${token}`);
    await queueEmails(tx, [
      { ...passwordResetEmail({ link, minutes: options.ttlMinutes }), to: user.email, partnerId: user.partnerId },
    ]);
  });
  return "sent";
}

const usable = (token: string) =>
  and(
    eq(passwordResets.tokenHash, hashToken(token)),
    isNull(passwordResets.usedAt),
    gt(passwordResets.expiresAt, new Date()),
  );

/** Whether a link still works (the reset page asks before showing its form). */
export async function resetLinkWorks(db: DbOrTx, token: string): Promise<boolean> {
  const [row] = await db.select({ id: passwordResets.id }).from(passwordResets).where(usable(token));
  return !!row;
}

export const RESET_LINK_REFUSED = "This reset link is invalid, expired or already used. Ask for a new one.";

/** Uses the link once: the account's new password, every session of it ended; the user, for the history and a sign-in. */
export async function resetPasswordWithToken(
  db: DbOrTx,
  passwords: Passwords,
  token: string,
  password: string,
): Promise<User> {
  checkPassword(password);
  // The cheap check first: a dead link costs no password hash.
  if (!(await resetLinkWorks(db, token))) throw refuse(RESET_LINK_REFUSED);
  const passwordHash = await passwords.hash(password);
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(usable(token))
      .returning({ id: passwordResets.id, userId: passwordResets.userId });
    if (!used) throw refuse(RESET_LINK_REFUSED);
    const [user] = await tx
      .update(users)
      .set({ passwordHash, ...bump })
      .where(and(eq(users.id, used.userId), isNull(users.disabledAt)))
      .returning();
    if (!user) throw refuse(RESET_LINK_REFUSED);
    // Every other link, and the invitations whoever held the account may have sent.
    await revokeStanding(tx, user.id);
    return user;
  });
}
