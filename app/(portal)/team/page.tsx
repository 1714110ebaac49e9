import Link from "next/link";
import { requirePartner } from "@/server/session";
import { can, grantableRoles, roleChangeRefusal, type Role, type TeamRole } from "@/lib/domain";
import { pendingInvitations } from "@/lib/auth/accounts";
import { teamOf } from "@/lib/portal/queries";
import { buttonColumn, DataTable } from "../../_components/data-table";
import { Badge, Card, Missing, PageHeader, Time } from "../../_components/ui";
import { removeMemberAction, withdrawInvitationAction } from "./actions";
import { InviteForm, RoleForm } from "./forms";

export const metadata = { title: "Team" };

export default async function Team() {
  const { app, partnerId, user } = await requirePartner();
  const manager = can(user.role, "team");
  // The roles this member may give (only an owner makes owners), and whose role or membership they may change.
  const grantable = grantableRoles(user.role);
  // An operator is no member of a team: only team roles are changed here.
  const manages = (role: Role): role is TeamRole => role !== "operator" && !roleChangeRefusal(user.role, role, null);
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
      <DataTable
        label="Members"
        rows={members}
        rowKey={(m) => m.id}
        columns={[
          {
            header: "Email",
            className: "break-all",
            cell: (m) => (
              <>
                {m.email}
                {m.id === user.id && <span className="ml-1 text-xs text-slate-600">(you)</span>}
              </>
            ),
          },
          { header: "Name", cell: (m) => m.name ?? <Missing /> },
          {
            header: "Role",
            cell: (m) =>
              manages(m.role) ? <RoleForm memberId={m.id} role={m.role} roles={grantable} /> : <Badge value={m.role} />,
          },
          { header: "Joined", cell: (m) => <Time value={m.createdAt} />, from: "sm" },
          manager &&
            buttonColumn<(typeof members)[number]>({
              action: removeMemberAction,
              label: "Remove",
              pendingText: "Removing…",
              confirm: (m) => `Remove ${m.email}? Their account is deleted and they are signed out at once.`,
              shown: (m) => m.id !== user.id && manages(m.role),
            }),
        ]}
      />
      {invitations.length > 0 && (
        <>
          <h2 className="mb-3 mt-8 text-base font-semibold text-slate-900">Pending invitations</h2>
          <DataTable
            label="Pending invitations"
            rows={invitations}
            rowKey={(inv) => inv.id}
            columns={[
              {
                header: "For",
                className: "break-all",
                cell: (inv) => inv.email ?? <span className="text-slate-600">anyone with the link</span>,
              },
              { header: "Created", cell: (inv) => <Time value={inv.createdAt} />, from: "sm" },
              { header: "Expires", cell: (inv) => <Time value={inv.expiresAt} /> },
              buttonColumn({
                action: withdrawInvitationAction,
                label: "Withdraw",
                pendingText: "Withdrawing…",
                confirm: () => "Withdraw this invitation? Its link stops working at once.",
              }),
            ]}
          />
        </>
      )}
    </>
  );
}
