// Sign-up, credential checks and invitations.
import { remove as removeConfusables } from "confusables";
import { createHash } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { schema, type Db, type DbOrTx } from "@/lib/db";
import { createUser, findUserByEmail, normalizeEmail, type User } from "./users";
import type { Passwords } from "./password";
import { beginAttempt, endAttempt, type SignInClient } from "./throttle";
import { checkEmail, checkName, checkPassword, refuse } from "./input";

export { MIN_PASSWORD } from "./input";

/** Names an outsider must not take: the operator's own partners and words that suggest Finca staff. */
const RESERVED_NAMES = ["seed partner", "finca", "admin", "administrator", "operator", "support", "system"];
// Compared by a confusable skeleton (Unicode TR39's confusables, as the confusables package maps
// them to Latin letters): "Sеed Partner" with a Cyrillic е is the seed partner's name.
const comparable = (name: string) =>
  removeConfusables(name.normalize("NFKC"))
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
export const isReservedName = (name: string) => RESERVED_NAMES.includes(comparable(name));

export interface AccountDeps {
  db: DbOrTx;
  passwords: Passwords;
}

/** A new partner organisation with the user as its owner. */
export async function signUp(
  { db, passwords }: AccountDeps,
  input: { organisation: string; name?: string; email: string; password: string },
  /** Asked once the sign-up is valid, before anything is made: a refusal's message, or null (a cap on new accounts). */
  admit: () => Promise<string | null> = async () => null,
): Promise<User> {
  const organisation = checkName(input.organisation, "organisation's name", 2);
  const name = checkName(input.name ?? "", "name", 0);
  checkEmail(input.email);
  checkPassword(input.password);
  if (isReservedName(organisation)) throw refuse("This organisation name is reserved. Choose another.");
  // Counted before the email is looked up: the answer says whether an account has it, so probing
  // for accounts spends the cap as signing up does. Invalid input spends nothing.
  const refused = await admit();
  if (refused) throw refuse(refused);
  if (await findUserByEmail(db, input.email))
    throw refuse("An account with this email already exists. Sign in instead.");
  const passwordHash = await passwords.hash(input.password);
  return db.transaction(async (tx) => {
    const [partner] = await tx.insert(schema.partners).values({ name: organisation }).onConflictDoNothing().returning();
    if (!partner) throw refuse("An organisation with this name already exists. Ask its owner for an invitation.");
    return createUser(tx, {
      email: input.email,
      passwordHash,
      role: "owner",
      partnerId: partner.id,
      name: name || undefined,
    });
  });
}

export type CredentialCheck =
  | { ok: true; user: User }
  | { ok: false; reason: "throttled"; retryAfterMs: number }
  | { ok: false; reason: "invalid" | "disabled" };

/** Email + password, throttled per account (or known device) and per client address (see ./throttle). */
export async function checkCredentials(
  { db, passwords }: AccountDeps,
  email: string,
  password: string,
  client: SignInClient,
  now = new Date(),
): Promise<CredentialCheck> {
  const normalized = normalizeEmail(email).slice(0, 320);
  const attempt = await beginAttempt(db, normalized, client, now);
  if (!attempt.ok) return { ok: false, reason: "throttled", retryAfterMs: attempt.retryAfterMs };
  let valid = false;
  let user: User | null = null;
  try {
    user = await findUserByEmail(db, normalized);
    // Verify against a dummy hash when the user is unknown, so timing does not reveal which emails exist.
    valid = (await passwords.verify(user?.passwordHash ?? DUMMY_HASH, password)) && user !== null;
  } finally {
    await endAttempt(db, normalized, client, attempt.ids, valid, now);
  }
  if (!valid || !user) return { ok: false, reason: "invalid" };
  if (user.disabledAt) return { ok: false, reason: "disabled" };
  return { ok: true, user };
}

const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$jhE1hFv6MKcQMGZsZ2RQLA$RmmR2HcXHgYarT2FF2EXFAuM+3JGaw1l9vjvMj5mtCU";

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function findInvitation(db: Db, token: string) {
  const [row] = await db
    .select({ invitation: schema.invitations, partnerName: schema.partners.name })
    .from(schema.invitations)
    .innerJoin(schema.partners, eq(schema.partners.id, schema.invitations.partnerId))
    .where(
      and(
        eq(schema.invitations.tokenHash, hashToken(token)),
        isNull(schema.invitations.acceptedAt),
        gt(schema.invitations.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}

/** Uses the invitation once: a member of the inviting partner. */
export async function acceptInvitation(
  { db, passwords }: AccountDeps,
  token: string,
  input: { email: string; password: string; name?: string },
): Promise<User> {
  checkEmail(input.email);
  checkPassword(input.password);
  const name = checkName(input.name ?? "", "name", 0);
  const passwordHash = await passwords.hash(input.password);
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .update(schema.invitations)
      .set({ acceptedAt: new Date() })
      .where(
        and(
          eq(schema.invitations.tokenHash, hashToken(token)),
          isNull(schema.invitations.acceptedAt),
          gt(schema.invitations.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!invitation) throw refuse("This invitation link is invalid, expired or already used.");
    if (invitation.email && invitation.email !== normalizeEmail(input.email))
      throw refuse("This invitation is for another email address.");
    if (await findUserByEmail(tx, input.email)) throw refuse("An account with this email already exists.");
    return createUser(tx, {
      email: input.email,
      passwordHash,
      role: invitation.role,
      partnerId: invitation.partnerId,
      name: name || undefined,
    });
  });
}

/** Invitations not used yet and not expired, for the owner to see and withdraw. */
export async function pendingInvitations(db: Db, partnerId: string) {
  return db
    .select({
      id: schema.invitations.id,
      email: schema.invitations.email,
      createdAt: schema.invitations.createdAt,
      expiresAt: schema.invitations.expiresAt,
    })
    .from(schema.invitations)
    .where(
      and(
        eq(schema.invitations.partnerId, partnerId),
        isNull(schema.invitations.acceptedAt),
        gt(schema.invitations.expiresAt, new Date()),
      ),
    )
    .orderBy(schema.invitations.createdAt);
}
