import Link from "next/link";
import { requirePartner } from "@/server/session";
import { can, grantableRoles, roleChangeRefusal, type TeamRole } from "@/lib/domain";
import { pendingInvitations } from "@/lib/auth/accounts";
import { teamOf } from "@/lib/portal/queries";
import { ActionButton } from "../../_components/action-button";
import { Badge, Card, Missing, PageHeader, TableWrap, Time } from "../../_components/ui";
import { removeMemberAction, withdrawInvitationAction } from "./actions";
import { InviteForm, RoleForm } from "./forms";

export const metadata = { title: "Team" };

export default async function Team() {
  const { app, partnerId, user } = await requirePartner();
  const manager = can(user.role, "team");
  // The roles this member may give (only an owner makes owners), and whose role or membership they may change.
  const grantable = grantableRoles(user.role);
  const manages = (role: TeamRole) => !roleChangeRefusal(user.role, role, null);
  const [members, invitations] = await Promise.all([
    teamOf(app.db, partnerId),
    manager ? pendingInvitations(app.db, partnerId) : [],
  ]);
  return (
    <>
      <PageHeader
        title="Team"
        description={
          <>
            Owners and admins manage the team (only an owner makes or changes an owner); developers work with keys,
            webhooks, properties and portfolios in both modes; viewers read properties, portfolios and logs, and test
            endpoints, and never see a key or a secret.
            {can(user.role, "activity") && (
              <>
                {" "}
                <Link className="link" href="/team/activity">
                  Activity
                </Link>
                : who signed in, and who changed keys, endpoints and the team, from where.
              </>
            )}
          </>
        }
      />
      {manager ? (
        <Card title="Invite a member" className="mb-6">
          <InviteForm roles={grantable} />
        </Card>
      ) : (
        <p className="mb-6 rounded-lg border border-slate-200 bg-white p-3 text-sm text-slate-600">
          Your role is {user.role}: only your organisation&apos;s owners and admins invite members and change roles.
        </p>
      )}
      <TableWrap label="Members">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col" className="hidden sm:table-cell">
                Joined
              </th>
              {manager && (
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.id}>
                <td className="break-all">
                  {m.email}
                  {m.id === user.id && <span className="ml-1 text-xs text-slate-600">(you)</span>}
                </td>
                <td>{m.name ?? <Missing />}</td>
                <td>
                  {manages(m.role as TeamRole) ? (
                    <RoleForm memberId={m.id} role={m.role as TeamRole} roles={grantable} />
                  ) : (
                    <Badge value={m.role} />
                  )}
                </td>
                <td className="hidden sm:table-cell">
                  <Time value={m.createdAt} />
                </td>
                {manager && (
                  <td className="text-right">
                    {m.id !== user.id && manages(m.role as TeamRole) && (
                      <ActionButton
                        action={removeMemberAction}
                        id={m.id}
                        className="btn-danger btn-sm"
                        pendingText="Removing…"
                        confirm={`Remove ${m.email}? Their account is deleted and they are signed out at once.`}
                      >
                        Remove
                      </ActionButton>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {invitations.length > 0 && (
        <>
          <h2 className="mb-3 mt-8 text-base font-semibold text-slate-900">Pending invitations</h2>
          <TableWrap label="Pending invitations">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">For</th>
                  <th scope="col" className="hidden sm:table-cell">
                    Created
                  </th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {invitations.map((inv) => (
                  <tr key={inv.id}>
                    <td className="break-all">
                      {inv.email ?? <span className="text-slate-600">anyone with the link</span>}
                    </td>
                    <td className="hidden sm:table-cell">
                      <Time value={inv.createdAt} />
                    </td>
                    <td>
                      <Time value={inv.expiresAt} />
                    </td>
                    <td className="text-right">
                      <ActionButton
                        action={withdrawInvitationAction}
                        id={inv.id}
                        className="btn-danger btn-sm"
                        pendingText="Withdrawing…"
                        confirm="Withdraw this invitation? Its link stops working at once."
                      >
                        Withdraw
                      </ActionButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </>
      )}
    </>
  );
}
