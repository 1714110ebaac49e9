"use server";

import { headers } from "next/headers";
import { AuthError } from "next-auth";
import { signIn } from "@/server/auth";
import { getApp } from "@/server/app";
import { actorOf, requireUser } from "@/server/session";
import { audited } from "@/lib/audit";
import { changePassword } from "@/lib/auth/users";
import { acceptInvitation, signUp } from "@/lib/auth/accounts";
import { safeNextPath } from "@/lib/auth/redirect";
import { clientAddressOf } from "@/server/address";
import { BUSY } from "@/lib/auth/password";
import { DomainError } from "@/lib/domain";

/** `values` gives back what was typed (never passwords): React resets a form after its action. */
export type FormState = { error?: string; values?: Record<string, string> } | undefined;

const field = (form: FormData, name: string) => String(form.get(name) ?? "");
const KEPT = ["email", "name", "organisation"];
// Given back only when sane: a 500 KB "name" is refused, not echoed into the page.
const typed = (form: FormData) => Object.fromEntries(KEPT.map((name) => [name, field(form, name).slice(0, 320)]));

function refusal(code: string | undefined): string {
  if (code?.startsWith("throttled:"))
    return `Too many failed attempts. Wait ${code.slice("throttled:".length)} seconds and try again.`;
  if (code === "busy") return BUSY;
  if (code === "disabled") return "This account is disabled. Ask your organisation's owner or Finca's support.";
  return "Wrong email or password.";
}

async function signInWith(email: string, password: string, redirectTo: string): Promise<FormState> {
  try {
    await signIn("credentials", { email, password, redirectTo });
  } catch (error) {
    if (error instanceof AuthError) return { error: refusal((error as AuthError & { code?: string }).code) };
    throw error; // the redirect after a successful sign-in
  }
  // signIn redirects on success: it never returns.
  return undefined;
}

export async function signInAction(_: FormState, form: FormData): Promise<FormState> {
  const failed = await signInWith(field(form, "email"), field(form, "password"), safeNextPath(field(form, "next")));
  return failed && { ...failed, values: typed(form) };
}

export async function signUpAction(_: FormState, form: FormData): Promise<FormState> {
  const app = await getApp();
  try {
    const address = clientAddressOf(await headers(), app.config);
    await signUp(
      app,
      {
        organisation: field(form, "organisation"),
        name: field(form, "name"),
        email: field(form, "email"),
        password: field(form, "password"),
      },
      async () => {
        const decision = await app.signUps.hit(`sign-up:${address ?? "any"}`);
        return decision.allowed
          ? null
          : `Too many new accounts from here. Try again in ${Math.ceil(decision.resetSeconds / 60)} minutes.`;
      },
    );
  } catch (error) {
    if (error instanceof DomainError) return { error: error.detail, values: typed(form) };
    throw error;
  }
  return signInWith(field(form, "email"), field(form, "password"), "/dashboard");
}

export async function acceptInviteAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const app = await getApp();
    const address = clientAddressOf(await headers(), app.config);
    // The new member acts: their account and its record commit together.
    await audited(app, { userId: null, label: field(form, "email").slice(0, 320), address }, async (tx) => {
      const user = await acceptInvitation({ ...app, db: tx }, field(form, "token"), {
        email: field(form, "email"),
        password: field(form, "password"),
        name: field(form, "name"),
      });
      return { result: user, entry: { partnerId: user.partnerId, action: "invitation.accepted", target: user.email } };
    });
  } catch (error) {
    if (error instanceof DomainError) return { error: error.detail, values: typed(form) };
    throw error;
  }
  return signInWith(field(form, "email"), field(form, "password"), "/dashboard");
}

/** Self-service password change: every session ends (copies elsewhere too), this one is renewed. */
export async function changePasswordAction(_: FormState, form: FormData): Promise<FormState> {
  const ctx = await requireUser();
  const { app, user } = ctx;
  try {
    await audited(app, await actorOf(ctx), async (tx) => {
      await changePassword(tx, app.passwords, user.id, field(form, "current"), field(form, "password"));
      return { result: null, entry: { partnerId: user.partnerId, action: "password.changed", target: user.email } };
    });
  } catch (error) {
    if (error instanceof DomainError) return { error: error.detail };
    throw error;
  }
  return signInWith(
    user.email,
    field(form, "password"),
    `${field(form, "home") === "/admin" ? "/admin" : ""}/account?changed=1`,
  );
}
