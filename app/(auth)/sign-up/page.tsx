import Link from "next/link";
import { signUpAction } from "../actions";
import { AuthForm } from "../auth-form";
import { MIN_PASSWORD } from "@/lib/auth/accounts";

export const metadata = { title: "Create an account" };

export default function SignUp() {
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Create your organisation</h1>
      <p className="mb-4 text-sm text-slate-600">You become its owner and can invite your team.</p>
      <AuthForm
        action={signUpAction}
        submit="Create account"
        fields={[
          { name: "organisation", label: "Organisation", autoComplete: "organization" },
          { name: "name", label: "Your name", autoComplete: "name", required: false },
          { name: "email", label: "Work email", type: "email", autoComplete: "email" },
          {
            name: "password",
            label: "Password",
            type: "password",
            autoComplete: "new-password",
            hint: `At least ${MIN_PASSWORD} characters.`,
          },
        ]}
      />
      <p className="mt-4 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link className="font-medium text-brand-700 underline" href="/sign-in">
          Sign in
        </Link>
      </p>
    </>
  );
}
