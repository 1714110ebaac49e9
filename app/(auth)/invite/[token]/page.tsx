import { getApp } from "@/server/app";
import { findInvitation, MIN_PASSWORD } from "@/lib/auth/accounts";
import { acceptInviteAction } from "../../actions";
import { AuthForm } from "../../auth-form";

export const metadata = { title: "Join your team" };

export default async function Invite({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const found = await findInvitation((await getApp()).db, token);
  if (!found) {
    return (
      <>
        <h1 className="mb-2 text-lg font-semibold">Invitation not valid</h1>
        <p className="text-sm text-slate-600">
          This link is invalid, expired or already used. Ask your organisation&apos;s owner for a new one.
        </p>
      </>
    );
  }
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Join {found.partnerName}</h1>
      <p className="mb-4 text-sm text-slate-600">Create your account as a member.</p>
      <AuthForm
        action={acceptInviteAction}
        submit="Join"
        hidden={{ token }}
        fields={[
          { name: "name", label: "Your name", autoComplete: "name", required: false },
          {
            name: "email",
            label: "Email",
            type: "email",
            autoComplete: "email",
            defaultValue: found.invitation.email ?? undefined,
          },
          {
            name: "password",
            label: "Password",
            type: "password",
            autoComplete: "new-password",
            hint: `At least ${MIN_PASSWORD} characters.`,
          },
        ]}
      />
    </>
  );
}
