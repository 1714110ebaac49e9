import Link from "next/link";
import { safeNextPath } from "@/lib/auth/redirect";
import { oneParam, type RawParam } from "@/lib/portal/params";
import { signInAction } from "../actions";
import { AuthForm } from "../auth-form";

export const metadata = { title: "Sign in" };

export default async function SignIn({ searchParams }: { searchParams: Promise<{ next?: RawParam }> }) {
  const next = safeNextPath(oneParam((await searchParams).next));
  return (
    <>
      <h1 className="mb-4 text-lg font-semibold">Sign in to your portal</h1>
      <AuthForm
        action={signInAction}
        submit="Sign in"
        hidden={{ next }}
        fields={[
          { name: "email", label: "Email", type: "email", autoComplete: "email" },
          { name: "password", label: "Password", type: "password", autoComplete: "current-password" },
        ]}
      />
      <p className="mt-4 text-center text-sm text-slate-600">
        <Link className="font-medium text-brand-700 underline" href="/forgot-password">
          Forgot your password?
        </Link>
      </p>
      <p className="mt-2 text-center text-sm text-slate-600">
        New to Finca?{" "}
        <Link className="font-medium text-brand-700 underline" href="/sign-up">
          Create an account
        </Link>
      </p>
    </>
  );
}
