import Link from "next/link";
import { forgotPasswordAction } from "../actions";
import { AuthForm } from "../auth-form";

export const metadata = { title: "Reset your password" };

export default function ForgotPassword() {
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Reset your password</h1>
      <p className="mb-4 text-sm text-slate-600">
        Enter your account&apos;s email: we email it a link to choose a new password.
      </p>
      <AuthForm
        action={forgotPasswordAction}
        submit="Email me a reset link"
        fields={[{ name: "email", label: "Email", type: "email", autoComplete: "email" }]}
      />
      <p className="mt-4 text-center text-sm text-slate-600">
        <Link className="font-medium text-brand-700 underline" href="/sign-in">
          Back to sign in
        </Link>
      </p>
    </>
  );
}
