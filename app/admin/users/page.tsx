import { requireOperator } from "@/server/session";
import { listPartners } from "@/lib/partners";
import { liveRequests } from "@/lib/partners/live";
import { allUsers } from "@/lib/portal/queries";
import { DataTable } from "../../_components/data-table";
import { Badge, Card, EmptyState, Missing, PageHeader, Time } from "../../_components/ui";
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
          <DataTable
            label="Live access requests"
            rows={requests}
            rowKey={(r) => r.id}
            columns={[
              { header: "Organisation", cell: (r) => r.name, className: "font-medium" },
              {
                header: "Request",
                className: "max-w-md text-xs",
                cell: (r) => (
                  <>
                    <p>
                      <span className="font-medium">{r.request?.company}</span> · {r.request?.contact}
                    </p>
                    <p className="whitespace-pre-wrap break-words text-slate-600">{r.request?.use}</p>
                  </>
                ),
              },
              { header: "Asked", cell: (r) => <Time value={r.requestedAt} /> },
              { header: "Status", cell: (r) => <Badge value={r.access} /> },
              {
                header: null,
                className: "text-right",
                cell: (r) =>
                  r.access === "requested" && (
                    <div className="flex justify-end gap-2">
                      <ActionButton action={adminApproveLive} id={r.id} className="btn btn-sm" pendingText="Approving…">
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
                  ),
              },
            ]}
          />
        ) : (
          <p className="text-sm text-slate-600">No organisation has asked for live access yet.</p>
        )}
      </Card>
      <Card title={`Partners (${partners.length})`} className="mb-6">
        {partners.length ? (
          <DataTable
            label="Partners"
            rows={partners}
            rowKey={(p) => p.id}
            columns={[
              { header: "Name", cell: (p) => p.name, className: "font-medium" },
              { header: "Users", cell: (p) => p.users, className: "tabular-nums" },
              {
                header: "Active keys",
                className: "tabular-nums",
                cell: (p) => p.activeKeys,
                href: (p) => `/admin/keys?partner=${p.id}`,
              },
              { header: "Properties", cell: (p) => p.properties, className: "tabular-nums" },
              { header: "Since", cell: (p) => <Time value={p.createdAt} />, from: "sm" },
              { header: "Webhooks", cell: () => "Deliveries", href: (p) => `/admin/webhooks?partner=${p.id}` },
            ]}
          />
        ) : (
          <EmptyState title="No partners yet">
            Partners appear when someone signs up or an operator creates a key with the CLI.
          </EmptyState>
        )}
      </Card>
      <Card title={`Users (${users.length})`}>
        <DataTable
          label="Users"
          rows={users}
          rowKey={(u) => u.id}
          columns={[
            { header: "Email", cell: (u) => u.email, className: "break-all" },
            {
              header: "Role",
              cell: (u) => (
                <>
                  <Badge value={u.role} />
                  {u.disabledAt && (
                    <>
                      {" "}
                      <Badge value="disabled" />
                    </>
                  )}
                </>
              ),
            },
            { header: "Partner", cell: (u) => u.partner ?? <Missing>operator</Missing> },
            { header: "Since", cell: (u) => <Time value={u.createdAt} />, from: "sm" },
            {
              header: null,
              className: "text-right",
              cell: (u) =>
                u.id !== me.id && (
                  <div className="flex flex-wrap justify-end gap-2">
                    {!u.disabledAt && (
                      <ActionButton
                        action={adminEndSessions}
                        id={u.id}
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
                ),
            },
          ]}
        />
      </Card>
    </>
  );
}
