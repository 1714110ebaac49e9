import Link from "next/link";
import { requireOperator } from "@/server/session";
import { listPartners } from "@/lib/partners";
import { liveRequests } from "@/lib/partners/live";
import { allUsers } from "@/lib/portal/queries";
import { Badge, Card, EmptyState, Missing, PageHeader, TableWrap, Time } from "../../_components/ui";
import { adminApproveLive, adminDisableUser, adminEnableUser, adminEndSessions, adminRefuseLive } from "../actions";
import { ActionButton } from "../../_components/action-button";
import { ResetPassword } from "./reset-password";

export const metadata = { title: "Partners and users" };

export default async function AdminUsers() {
  const { app, user: me } = await requireOperator();
  const [partners, users, requests] = await Promise.all([listPartners(app.db), allUsers(app.db), liveRequests(app.db)]);
  return (
    <>
      <PageHeader title="Partners and users" />
      <Card title="Live access requests" className="mb-6">
        {requests.length ? (
          <TableWrap label="Live access requests">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Organisation</th>
                  <th scope="col">Request</th>
                  <th scope="col">Asked</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {requests.map((r) => (
                  <tr key={r.id}>
                    <td className="font-medium">{r.name}</td>
                    <td className="max-w-md text-xs">
                      <p>
                        <span className="font-medium">{r.request?.company}</span> · {r.request?.contact}
                      </p>
                      <p className="whitespace-pre-wrap break-words text-slate-600">{r.request?.use}</p>
                    </td>
                    <td>
                      <Time value={r.requestedAt} />
                    </td>
                    <td>
                      <Badge value={r.access} />
                    </td>
                    <td className="text-right">
                      {r.access === "requested" && (
                        <div className="flex justify-end gap-2">
                          <ActionButton
                            action={adminApproveLive}
                            id={r.id}
                            className="btn btn-sm"
                            pendingText="Approving…"
                          >
                            Approve
                          </ActionButton>
                          <ActionButton
                            action={adminRefuseLive}
                            id={r.id}
                            className="btn-danger btn-sm"
                            pendingText="Refusing…"
                            confirm={`Refuse live access for ${r.name}? Its owners may ask again.`}
                          >
                            Refuse
                          </ActionButton>
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : (
          <p className="text-sm text-slate-600">No organisation has asked for live access yet.</p>
        )}
      </Card>
      <Card title={`Partners (${partners.length})`} className="mb-6">
        {partners.length ? (
          <TableWrap label="Partners">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Users</th>
                  <th scope="col">Active keys</th>
                  <th scope="col">Properties</th>
                  <th scope="col" className="hidden sm:table-cell">
                    Since
                  </th>
                  <th scope="col">Webhooks</th>
                </tr>
              </thead>
              <tbody>
                {partners.map((p) => (
                  <tr key={p.id}>
                    <td className="font-medium">{p.name}</td>
                    <td className="tabular-nums">{p.users}</td>
                    <td className="tabular-nums">
                      <Link className="link" href={`/admin/keys?partner=${p.id}`}>
                        {p.activeKeys}
                      </Link>
                    </td>
                    <td className="tabular-nums">{p.properties}</td>
                    <td className="hidden sm:table-cell">
                      <Time value={p.createdAt} />
                    </td>
                    <td>
                      <Link className="link" href={`/admin/webhooks?partner=${p.id}`}>
                        Deliveries
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : (
          <EmptyState title="No partners yet">
            Partners appear when someone signs up or an operator creates a key with the CLI.
          </EmptyState>
        )}
      </Card>
      <Card title={`Users (${users.length})`}>
        <TableWrap label="Users">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Partner</th>
                <th scope="col" className="hidden sm:table-cell">
                  Since
                </th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <td className="break-all">{u.email}</td>
                  <td>
                    <Badge value={u.role} />
                    {u.disabledAt && (
                      <>
                        {" "}
                        <Badge value="disabled" />
                      </>
                    )}
                  </td>
                  <td>{u.partner ?? <Missing>operator</Missing>}</td>
                  <td className="hidden sm:table-cell">
                    <Time value={u.createdAt} />
                  </td>
                  <td className="text-right">
                    {u.id !== me.id && (
                      <div className="flex flex-wrap justify-end gap-2">
                        {!u.disabledAt && (
                          <ActionButton
                            action={adminEndSessions}
                            id={u.id}
                            className="btn-secondary btn-sm"
                            pendingText="Ending…"
                            confirm={`End every session of ${u.email}? They are signed out everywhere at once.`}
                          >
                            End sessions
                          </ActionButton>
                        )}
                        <ActionButton
                          action={u.disabledAt ? adminEnableUser : adminDisableUser}
                          id={u.id}
                          className={u.disabledAt ? "btn-secondary btn-sm" : "btn-danger btn-sm"}
                          pendingText={u.disabledAt ? "Enabling…" : "Disabling…"}
                        >
                          {u.disabledAt ? "Enable" : "Disable"}
                        </ActionButton>
                        <ResetPassword id={u.id} email={u.email} />
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </Card>
    </>
  );
}
