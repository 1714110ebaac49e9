import Link from "next/link";
import { getApp } from "@/server/app";
import { MIN_PASSWORD } from "@/lib/auth/accounts";
import { RESET_LINK_REFUSED, resetLinkWorks } from "@/lib/auth/reset";
import { resetPasswordAction } from "../../actions";
import { AuthForm } from "../../auth-form";

export const metadata = { title: "Choose a new password" };

export default async function ResetPassword({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  if (!(await resetLinkWorks((await getApp()).db, token))) {
    return (
      <>
        <h1 className="mb-2 text-lg font-semibold">Reset link not valid</h1>
        <p className="text-sm text-slate-600">{RESET_LINK_REFUSED}</p>
        <p className="mt-4 text-center text-sm">
          <Link className="font-medium text-brand-700 underline" href="/forgot-password">
            Ask for a new link
          </Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Choose a new password</h1>
      <p className="mb-4 text-sm text-slate-600">Every session of your account ends; you are signed in here.</p>
      <AuthForm
        action={resetPasswordAction}
        submit="Set the new password"
        hidden={{ token }}
        fields={[
          {
            name: "password",
            label: "New password",
            type: "password",
            autoComplete: "new-password",
            hint: `At least ${MIN_PASSWORD} characters.`,
          },
        ]}
      />
    </>
  );
}
