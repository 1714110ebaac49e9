import { MIN_PASSWORD } from "@/lib/auth/accounts";
import type { User } from "@/lib/auth/users";
import { ChangePasswordForm } from "./change-password-form";
import { Card, PageHeader } from "./ui";

/** The signed-in person's own account, for partners' users and operators alike. */
export function AccountPage({ user, home, changed }: { user: User; home: "/admin" | "/dashboard"; changed: boolean }) {
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
      <Card title="Change password">
        <p className="mb-3 text-sm text-slate-600">Changing it signs you out everywhere else.</p>
        <ChangePasswordForm home={home} minLength={MIN_PASSWORD} />
      </Card>
    </>
  );
}
