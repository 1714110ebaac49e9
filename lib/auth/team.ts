// Managing an organisation's team: invitations, removals and role changes. Each command checks the
// acting member's role itself (lib/domain/roles.ts), whoever calls it: owners and admins manage the
// team, only an owner makes or unmakes an owner, and an organisation always keeps an owner.
import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";
import { authorize, DomainError, isUuid, roleChangeRefusal, type Role, type TeamRole } from "@/lib/domain";
import { INVITATION_TTL_MS, hashToken } from "./accounts";
import { normalizeEmail, withdrawInvitationsOutgrown } from "./users";
import { checkEmail, refuse } from "./input";

const { users, invitations } = schema;

/** The member acting, as the database has them now (the portal reads them on every request). */
export interface TeamActor {
  id: string;
  role: Role;
}

/** Refused with the domain's `forbidden` and the reason, when there is one. */
const forbid = (refusal: string | null) => {
  if (refusal) throw new DomainError("forbidden", refusal);
};

/** A one-time invitation link token (only its hash is stored) to join with `role`. */
export async function createInvitation(
  db: DbOrTx,
  partnerId: string,
  by: TeamActor,
  input: { email?: string; role: TeamRole },
): Promise<string> {
  forbid(roleChangeRefusal(by.role, null, input.role));
  if (input.email) checkEmail(input.email);
  const token = randomBytes(24).toString("base64url");
  await db.insert(invitations).values({
    partnerId,
    createdBy: by.id,
    email: input.email ? normalizeEmail(input.email) : null,
    role: input.role,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
  });
  return token;
}

/** Withdraws an invitation of this partner (its link stops working at once): its email, or undefined when none. */
export async function withdrawInvitation(
  db: DbOrTx,
  partnerId: string,
  by: TeamActor,
  id: string,
): Promise<{ email: string | null } | undefined> {
  authorize(by.role, "team");
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .delete(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.partnerId, partnerId), isNull(invitations.acceptedAt)))
    .returning({ email: invitations.email });
  return row;
}

/**
 * A member of the partner, for a change; refused when there is none. The
 * partner's row is locked first: team changes of one organisation take turns, so two of them never
 * lock each other's members in opposite orders, and an owner count read after it stays true.
 */
async function memberToChange(tx: DbOrTx, partnerId: string, memberId: string) {
  if (!isUuid(memberId)) throw refuse("No such member.");
  await tx
    .select({ id: schema.partners.id })
    .from(schema.partners)
    .where(eq(schema.partners.id, partnerId))
    .for("update");
  const [member] = await tx
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(and(eq(users.id, memberId), eq(users.partnerId, partnerId)));
  if (!member) throw refuse("No such member.");
  const { role } = member;
  if (role === "operator") throw refuse("No such member.");
  return { ...member, role };
}

/** Removes a member (their account deleted, their sessions over); their email, for the history. */
export async function removeMember(
  db: DbOrTx,
  partnerId: string,
  by: TeamActor,
  memberId: string,
): Promise<{ email: string }> {
  authorize(by.role, "team");
  return db.transaction(async (tx) => {
    const member = await memberToChange(tx, partnerId, memberId);
    if (member.id === by.id) throw refuse("You cannot remove yourself.");
    // Only an owner removes an owner, and that owner (not removable by themself) stays.
    forbid(roleChangeRefusal(by.role, member.role, null));
    await withdrawInvitationsOutgrown(tx, member.id, null);
    await tx.delete(users).where(eq(users.id, member.id));
    return { email: member.email };
  });
}

/**
 * Gives a member another role: what they were and are, for the history; null when nothing changed.
 * Taking the last owner's role away is refused: the owners are counted under the partner's lock, so
 * two owners demoting each other at once leave one.
 */
export async function changeRole(
  db: DbOrTx,
  partnerId: string,
  by: TeamActor,
  memberId: string,
  role: TeamRole,
): Promise<{ email: string; from: TeamRole; to: TeamRole } | null> {
  authorize(by.role, "team");
  return db.transaction(async (tx) => {
    const member = await memberToChange(tx, partnerId, memberId);
    forbid(roleChangeRefusal(by.role, member.role, role));
    if (member.role === role) return null;
    if (member.role === "owner") {
      const owners = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.partnerId, partnerId), eq(users.role, "owner")));
      if (owners.filter((o) => o.id !== member.id).length === 0)
        throw refuse("An organisation keeps at least one owner: make another member an owner first.");
    }
    await tx.update(users).set({ role }).where(eq(users.id, member.id));
    await withdrawInvitationsOutgrown(tx, member.id, role);
    return { email: member.email, from: member.role, to: role };
  });
}
