import Link from "next/link";
import { requirePartner } from "@/server/session";
import { pendingInvitations } from "@/lib/auth/accounts";
import { teamOf } from "@/lib/portal/queries";
import { ActionButton } from "../../_components/action-button";
import { Badge, Card, Missing, PageHeader, TableWrap, Time } from "../../_components/ui";
import { removeMemberAction, withdrawInvitationAction } from "../actions";
import { InviteForm } from "../forms";

export const metadata = { title: "Team" };

export default async function Team() {
  const { app, partnerId, user } = await requirePartner();
  const owner = user.role === "owner";
  const [members, invitations] = await Promise.all([
    teamOf(app.db, partnerId),
    owner ? pendingInvitations(app.db, partnerId) : [],
  ]);
  return (
    <>
      <PageHeader
        title="Team"
        description={
          <>
            Everyone here sees your organisation&apos;s keys, properties and webhooks in both modes.
            {owner && (
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
      {owner ? (
        <Card title="Invite a member" className="mb-6">
          <InviteForm />
        </Card>
      ) : (
        <p className="mb-6 rounded-lg border border-slate-200 bg-white p-3 text-sm text-slate-600">
          Only your organisation&apos;s owner can invite members.
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
              {owner && (
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
                  <Badge value={m.role} />
                </td>
                <td className="hidden sm:table-cell">
                  <Time value={m.createdAt} />
                </td>
                {owner && (
                  <td className="text-right">
                    {m.role === "member" && (
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
