// Portal users: the members of a partner's organisation (owner, admin, developer, viewer), and
// operators who belong to no partner.
// Every change that must take access away (sign-out, password, role, removal, disable) bumps the
// user's session version: sessions carry the version they were issued under and are refused once
// it differs (server/session.ts), so every copy of an old cookie stops working at once.
import { randomBytes } from "node:crypto";
import { and, eq, isNull, notInArray, sql } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";
import { grantableRoles, isUuid, type Role, type TeamRole } from "@/lib/domain";
import type { Passwords } from "./password";
import { checkPassword, refuse } from "./input";

const { users, invitations, passwordResets } = schema;
export type User = typeof users.$inferSelect;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: DbOrTx, email: string): Promise<User | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return row ?? null;
}

export async function getUser(db: DbOrTx, id: string): Promise<User | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function createUser(
  db: DbOrTx,
  input: { email: string; passwordHash: string; role: Role; partnerId: string | null; name?: string },
): Promise<User> {
  const [row] = await db
    .insert(users)
    .values({
      email: normalizeEmail(input.email),
      passwordHash: input.passwordHash,
      role: input.role,
      partnerId: input.partnerId,
      name: input.name ?? null,
    })
    .returning();
  return row!;
}

/** Is a session issued under `version` still good for this user? */
export const sessionIsCurrent = (user: User | null, version: unknown): user is User =>
  !!user && !user.disabledAt && user.sessionVersion === version;

/** Ends every session of the user at once (the set of an update). */
export const bump = { sessionVersion: sql`${users.sessionVersion} + 1` };

/**
 * Withdraws the pending invitations `memberId` made that their role `role` (null: none, their account
 * removed, disabled or its sessions ended for a compromise) could no longer make: a link must not
 * outlive the access of whoever sent it (an admin's link made before containment would join as admin).
 */
export async function withdrawInvitationsOutgrown(db: DbOrTx, memberId: string, role: TeamRole | null) {
  const still = role ? grantableRoles(role) : [];
  await db
    .delete(invitations)
    .where(
      and(
        eq(invitations.createdBy, memberId),
        isNull(invitations.acceptedAt),
        still.length ? notInArray(invitations.role, still) : undefined,
      ),
    );
}

/**
 * What a stolen session or mailbox could still use once the user's sessions end or their password
 * changes: a reset link not used yet (it would take the account back), and the invitations they sent
 * (whoever held their session may have made them). Both go.
 */
export async function revokeStanding(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(passwordResets).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  await withdrawInvitationsOutgrown(db, userId, null);
}

/**
 * Ends every session of the user at once (an operator's "End sessions" for a lost laptop or a shared
 * password; every copy of every cookie), with what those sessions could have left standing.
 */
export async function endSessions(db: DbOrTx, userId: string): Promise<void> {
  await db.update(users).set(bump).where(eq(users.id, userId));
  await revokeStanding(db, userId);
}

/** Self-service: the current password proves it is them; every session ends, this one included. */
export async function changePassword(
  db: DbOrTx,
  passwords: Passwords,
  userId: string,
  current: string,
  next: string,
): Promise<void> {
  const user = await getUser(db, userId);
  if (!user || !(await passwords.verify(user.passwordHash, current)))
    throw refuse("The current password is not right.");
  checkPassword(next);
  if (next === current) throw refuse("Choose a password different from the current one.");
  await db
    .update(users)
    .set({ passwordHash: await passwords.hash(next), ...bump })
    .where(eq(users.id, userId));
  await revokeStanding(db, userId);
}

/** An operator's reset: a new random password, shown once to be passed on; every session ends. */
export async function resetPassword(db: DbOrTx, passwords: Passwords, userId: string): Promise<string> {
  if (!isUuid(userId)) throw refuse("No such user.");
  const password = randomBytes(15).toString("base64url");
  const [row] = await db
    .update(users)
    .set({ passwordHash: await passwords.hash(password), ...bump })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  if (!row) throw refuse("No such user.");
  await revokeStanding(db, userId);
  return password;
}

/** An operator disables (or enables again) a user; never their own account. Disabled, their invitations go. */
export async function setDisabled(db: DbOrTx, actorId: string, userId: string, disabled: boolean): Promise<void> {
  if (actorId === userId) throw refuse("You cannot disable your own account.");
  if (!isUuid(userId)) throw refuse("No such user.");
  await db
    .update(users)
    .set({ disabledAt: disabled ? new Date() : null, ...bump })
    .where(eq(users.id, userId));
  if (disabled) await revokeStanding(db, userId);
}

/**
 * The operator's bootstrap admin: created, or its password reset to the configured one. An
 * existing partner account with that email is never promoted (someone may have signed up early
 * with the address the operator meant to use): start-up fails and says so.
 */
export async function ensureAdmin(db: DbOrTx, passwords: Passwords, email: string, password: string): Promise<void> {
  const existing = await findUserByEmail(db, email);
  if (existing && (existing.role !== "operator" || existing.partnerId)) {
    throw new Error(
      `FINCA_ADMIN_EMAIL ${normalizeEmail(email)} belongs to a partner's portal account; it is not made an admin. Choose another address, or remove that account first.`,
    );
  }
  if (!existing) {
    await db
      .insert(users)
      .values({
        email: normalizeEmail(email),
        passwordHash: await passwords.hash(password),
        role: "operator",
        partnerId: null,
      })
      .onConflictDoNothing({ target: users.email });
    return;
  }
  // A changed password ends the sessions made with the old one.
  if (!(await passwords.verify(existing.passwordHash, password))) {
    await db
      .update(users)
      .set({ passwordHash: await passwords.hash(password), ...bump })
      .where(eq(users.id, existing.id));
  }
}

/** The user's own choice: an email when a portfolio of their organisation completes (Account page). */
export async function setPortfolioEmails(db: DbOrTx, userId: string, on: boolean): Promise<void> {
  await db.update(users).set({ notifyPortfolioCompleted: on }).where(eq(users.id, userId));
}
