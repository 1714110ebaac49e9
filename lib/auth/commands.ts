// The writes a member makes to their organisation (its team, its request for live access) and to
// their own sessions, from the portal: each checks the member's role, spends the write on its budget
// where one counts it, then makes the change and its row in the security history in one
// transaction, as lib/webhooks/commands.ts does for endpoints. Inputs are parsed by the caller with
// the schemas here.
import { z } from "zod";
import { DomainError, TEAM_ROLES } from "@/lib/domain";
import type { DbOrTx } from "@/lib/db";
import { audited, mayWrite, type Actor, type AuditLog, type Writer } from "@/lib/audit";
import { LiveRequestBody, requestLiveAccess, type LiveRequest } from "@/lib/partners/live";
import type { Passwords } from "./password";
import { endOtherSessions, endSession } from "./sessions";
import { changePassword, normalizeEmail } from "./users";
import { INVITATION_TTL_MS } from "./accounts";
import { invitationEmail, portalLink, queueEmails } from "@/lib/email";
import { getPartner } from "@/lib/partners";
import { changeRole, createInvitation, removeMember, withdrawInvitation, type TeamActor } from "./team";

export { LiveRequestBody };

const role = z.enum(TEAM_ROLES, { error: `Choose one of the roles: ${TEAM_ROLES.join(", ")}.` });

/** No email: a link anyone may use once. */
export const InviteBody = z.strictObject({ email: z.string().trim().max(320).optional(), role });
export type InviteInput = z.infer<typeof InviteBody>;

export const RoleChangeBody = z.strictObject({ id: z.string(), role });
export type RoleChangeInput = z.infer<typeof RoleChangeBody>;

/** What the commands need: the database and the history's log. */
export interface AccountDeps {
  db: DbOrTx;
  logger: AuditLog;
}

/** The member acting: only a signed-in member changes the organisation's team or asks for its live access. */
const memberOf = ({ userId, role }: Actor): TeamActor => {
  if (!userId || !role) throw new DomainError("forbidden", "Only a member of the organisation can do this.");
  return { id: userId, role };
};

/** A member, their role checked (`team.ts` checks who may give which role), then the budget spent. */
const mayManage = async (by: Writer): Promise<TeamActor> => {
  const member = memberOf(by.actor);
  await mayWrite(by, "team");
  return member;
};

/** Where an invitation link points: `/invite/<token>` on `base`. */
export const invitationPath = (token: string) => `/invite/${token}`;

/**
 * A one-time invitation link's token, for `input.email` alone when given: then the link is emailed
 * to that address too (in the same transaction), on the origin `base`.
 */
export async function invite(
  deps: AccountDeps,
  partnerId: string,
  by: Writer,
  input: InviteInput,
  base: string,
): Promise<string> {
  const member = await mayManage(by);
  const email = input.email || undefined;
  return audited(deps, by.actor, async (tx) => {
    const token = await createInvitation(tx, partnerId, member, { email, role: input.role });
    if (email) {
      const message = invitationEmail({
        organisation: (await getPartner(tx, partnerId))?.name ?? "",
        role: input.role,
        link: portalLink(base, invitationPath(token)),
        invitedBy: by.actor.label,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      });
      await queueEmails(tx, [{ ...message, to: normalizeEmail(email), partnerId }]);
    }
    return {
      result: token,
      entry: {
        partnerId,
        action: "invitation.sent",
        target: email ?? "a link for anyone",
        detail: { role: input.role },
      },
    };
  });
}

/** Its link stops working at once; nothing when `id` names no pending invitation of the partner. */
export async function withdrawInvite(deps: AccountDeps, partnerId: string, by: Writer, id: string): Promise<void> {
  const member = await mayManage(by);
  await audited(deps, by.actor, async (tx) => {
    const withdrawn = await withdrawInvitation(tx, partnerId, member, id);
    const target = withdrawn && (withdrawn.email ?? "a link for anyone");
    return { result: undefined, entry: withdrawn ? { partnerId, action: "invitation.withdrawn", target } : null };
  });
}

/** The member's account is deleted and their sessions end (never one's own, nor the last owner). */
export async function removeTeamMember(deps: AccountDeps, partnerId: string, by: Writer, id: string): Promise<void> {
  const member = await mayManage(by);
  await audited(deps, by.actor, async (tx) => {
    const removed = await removeMember(tx, partnerId, member, id);
    return { result: undefined, entry: { partnerId, action: "member.removed", target: removed.email } };
  });
}

/** Another role for a member (an organisation keeps an owner). */
export async function changeMemberRole(
  deps: AccountDeps,
  partnerId: string,
  by: Writer,
  input: RoleChangeInput,
): Promise<void> {
  const member = await mayManage(by);
  await audited(deps, by.actor, async (tx) => {
    const changed = await changeRole(tx, partnerId, member, input.id, input.role);
    return {
      result: undefined,
      entry: changed && {
        partnerId,
        action: "member.role_changed",
        target: changed.email,
        detail: { from: changed.from, to: changed.to },
      },
    };
  });
}

/** An owner asks Finca for live access: what the organisation is and will do with it. */
export async function requestLive(
  deps: AccountDeps,
  partnerId: string,
  by: Writer,
  input: LiveRequest,
): Promise<LiveRequest> {
  const member = memberOf(by.actor);
  await mayWrite(by, "live");
  return audited(deps, by.actor, async (tx) => {
    const request = await requestLiveAccess(tx, partnerId, member, input);
    return { result: request, entry: { partnerId, action: "live_access.requested", target: request.company } };
  });
}

/** The user whose sessions are ended, and the one this browser holds. */
export interface SessionOwner {
  id: string;
  email: string;
  partnerId: string | null;
  sessionId: string;
}

/**
 * A user's own sessions: not counted on a write budget (whoever spent it must not keep the user from
 * ending a session). Signing out ends this browser's session only: a copy of its cookie stops working.
 */
export async function signOutSession(deps: AccountDeps, actor: Actor, user: SessionOwner): Promise<void> {
  await audited(deps, actor, async (tx) => {
    await endSession(tx, user.id, user.sessionId);
    return { result: undefined, entry: { partnerId: user.partnerId, action: "sign_out", target: null } };
  });
}

/** Ends another session of the user (a browser left signed in elsewhere): false when it was over already. */
export async function endOtherSession(deps: AccountDeps, actor: Actor, user: SessionOwner, id: string) {
  if (id === user.sessionId)
    throw new DomainError("validation_error", "This is the session you are using: sign out instead.");
  return audited(deps, actor, async (tx) => {
    const ended = await endSession(tx, user.id, id);
    const entry = {
      partnerId: user.partnerId,
      action: "session.ended" as const,
      target: null,
      detail: { session: id },
    };
    return { result: ended, entry: ended ? entry : null };
  });
}

/** Ends every session of the user but this browser's: how many it ended. */
export async function endAllOtherSessions(deps: AccountDeps, actor: Actor, user: SessionOwner): Promise<number> {
  return audited(deps, actor, async (tx) => {
    const ended = await endOtherSessions(tx, user.id, user.sessionId);
    const entry = { partnerId: user.partnerId, action: "session.ended_all_others" as const, target: null };
    return { result: ended, entry: ended ? { ...entry, detail: { ended } } : null };
  });
}

/** A new password, given the current one: every session of the user ends (copies elsewhere too). */
export async function changeOwnPassword(
  deps: AccountDeps & { passwords: Passwords },
  actor: Actor,
  user: SessionOwner,
  input: { current: string; password: string },
): Promise<void> {
  await audited(deps, actor, async (tx) => {
    await changePassword(tx, deps.passwords, user.id, input.current, input.password);
    return { result: undefined, entry: { partnerId: user.partnerId, action: "password.changed", target: user.email } };
  });
}
