import { MIN_PASSWORD } from "@/lib/auth/accounts";
import { deviceOf, listSessions } from "@/lib/auth/sessions";
import type { PortalContext } from "@/server/session";
import { ActionButton } from "../_components/action-button";
import { DataTable } from "../_components/data-table";
import { Card, Missing, PageHeader, Time } from "../_components/ui";
import { endOtherSessionsAction, endSessionAction } from "./actions";
import { ChangePasswordForm } from "./change-password-form";
import { EmailChoicesForm } from "./email-choices-form";
import { countOf } from "@/lib/portal/format";

/** The signed-in person's own account, for partners' users and operators alike. */
export async function AccountPage({
  ctx: { app, user, sessionId },
  home,
  changed,
}: {
  ctx: PortalContext;
  home: "/admin" | "/dashboard";
  changed: boolean;
}) {
  const sessions = await listSessions(app.db, user.id);
  const others = sessions.filter((s) => s.id !== sessionId).length;
  return (
    <>
      <PageHeader title="Your account" description={user.email} />
      {changed && (
        <p
          role="status"
          className="mb-6 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
        >
          Password changed. Every other session of yours (other browsers, copied cookies) has been signed out.
        </p>
      )}
      <Card
        title="Sessions"
        className="mb-6"
        actions={
          others > 0 && (
            <ActionButton
              action={endOtherSessionsAction}
              id="others"
              pendingText="Ending…"
              confirm={`End your ${countOf(others, "other session")}? Those browsers are signed out at once.`}
            >
              End all other sessions
            </ActionButton>
          )
        }
      >
        <p className="mb-3 text-sm text-slate-600">
          Browsers signed in to your account. End one you do not recognise or no longer use: it is signed out at once,
          copies of its cookie included.
        </p>
        <DataTable
          label="Your sessions"
          testId="sessions"
          rows={sessions}
          rowKey={(s) => s.id}
          rowTestId="session"
          columns={[
            { header: "Device", cell: (s) => deviceOf(s.userAgent) },
            {
              header: "Address",
              cell: (s) => s.address ?? <Missing>not known</Missing>,
              className: "font-mono text-xs",
            },
            { header: "Signed in", cell: (s) => <Time value={s.createdAt} />, from: "sm" },
            { header: "Last seen", cell: (s) => <Time value={s.lastSeenAt} /> },
            {
              header: null,
              className: "text-right",
              cell: (s) =>
                s.id === sessionId ? (
                  <span className="text-xs font-medium text-emerald-700">This browser</span>
                ) : (
                  <ActionButton action={endSessionAction} id={s.id} className="btn-danger btn-sm" pendingText="Ending…">
                    End
                  </ActionButton>
                ),
            },
          ]}
        />
      </Card>
      {user.partnerId && (
        <Card title="Email" className="mb-6">
          <p className="mb-3 text-sm text-slate-600">
            Invitations, password resets, live access decisions and failing webhook endpoints are always emailed to whom
            they concern. This one is yours to choose:
          </p>
          <EmailChoicesForm portfolioCompleted={user.notifyPortfolioCompleted} />
        </Card>
      )}
      <Card title="Change password">
        <p className="mb-3 text-sm text-slate-600">Changing it signs you out everywhere else.</p>
        <ChangePasswordForm home={home} minLength={MIN_PASSWORD} />
      </Card>
    </>
  );
}
