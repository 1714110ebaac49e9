import { MIN_PASSWORD } from "@/lib/auth/accounts";
import { deviceOf, listSessions } from "@/lib/auth/sessions";
import type { PortalContext } from "@/server/session";
import { ActionButton } from "../_components/action-button";
import { Card, Missing, PageHeader, Time } from "../_components/ui";
import { endOtherSessionsAction, endSessionAction } from "./actions";
import { ChangePasswordForm } from "./change-password-form";

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
              className="btn-secondary btn-sm"
              pendingText="Ending…"
              confirm={`End your ${others} other session${others === 1 ? "" : "s"}? Those browsers are signed out at once.`}
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
        {/* A phone scrolls the table sideways: a region the keyboard can reach. */}
        <div data-scrolls className="overflow-x-auto" role="region" aria-label="Your sessions" tabIndex={0}>
          <table className="w-full text-sm" data-testid="sessions">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="py-1 pr-3 font-medium">Device</th>
                <th className="py-1 pr-3 font-medium">Address</th>
                <th className="hidden py-1 pr-3 font-medium sm:table-cell">Signed in</th>
                <th className="py-1 pr-3 font-medium">Last seen</th>
                <th className="py-1 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id} className="border-t border-slate-100" data-testid="session">
                  <td className="py-2 pr-3">{deviceOf(s.userAgent)}</td>
                  <td className="py-2 pr-3 font-mono text-xs">{s.address ?? <Missing>not known</Missing>}</td>
                  <td className="hidden py-2 pr-3 sm:table-cell">
                    <Time value={s.createdAt} />
                  </td>
                  <td className="py-2 pr-3">
                    <Time value={s.lastSeenAt} />
                  </td>
                  <td className="py-2 text-right">
                    {s.id === sessionId ? (
                      <span className="text-xs font-medium text-emerald-700">This browser</span>
                    ) : (
                      <ActionButton
                        action={endSessionAction}
                        id={s.id}
                        className="btn-danger btn-sm"
                        pendingText="Ending…"
                      >
                        End
                      </ActionButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <Card title="Change password">
        <p className="mb-3 text-sm text-slate-600">Changing it signs you out everywhere else.</p>
        <ChangePasswordForm home={home} minLength={MIN_PASSWORD} />
      </Card>
    </>
  );
}
