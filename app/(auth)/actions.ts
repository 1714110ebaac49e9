"use server";

import { headers } from "next/headers";
import { signInWith } from "@/server/auth";
import { getApp } from "@/server/app";
import { audited } from "@/lib/audit";
import { acceptInvitation, signUp } from "@/lib/auth/accounts";
import { safeNextPath } from "@/lib/auth/redirect";
import { clientAddressOf } from "@/server/address";
import { DomainError } from "@/lib/domain";
import { RESET_REQUESTED } from "@/lib/auth/reset";
import { askForPasswordReset, resetWithLink } from "@/server/password-reset";
import { linkBase } from "@/server/session";

/** `values` gives back what was typed (never passwords): React resets a form after its action. */
export type FormState = { error?: string; notice?: string; values?: Record<string, string> } | undefined;

const field = (form: FormData, name: string) => String(form.get(name) ?? "");
const KEPT = ["email", "name", "organisation"];
// Given back only when sane: a 500 KB "name" is refused, not echoed into the page.
const typed = (form: FormData) => Object.fromEntries(KEPT.map((name) => [name, field(form, name).slice(0, 320)]));

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

/** "Forgot your password?": the same answer whether or not an account has the address. */
export async function forgotPasswordAction(_: FormState, form: FormData): Promise<FormState> {
  const app = await getApp();
  try {
    const address = clientAddressOf(await headers(), app.config);
    const answer = await askForPasswordReset(app, field(form, "email"), { address, base: await linkBase(app) });
    return answer === "throttled"
      ? { error: "Too many reset requests from here or for this address. Try again in an hour.", values: typed(form) }
      : { notice: RESET_REQUESTED };
  } catch (error) {
    if (error instanceof DomainError) return { error: error.detail, values: typed(form) };
    throw error;
  }
}

/** The emailed link, used once: the new password, then signed in with it. */
export async function resetPasswordAction(_: FormState, form: FormData): Promise<FormState> {
  const app = await getApp();
  let email: string;
  try {
    const address = clientAddressOf(await headers(), app.config);
    email = (await resetWithLink(app, field(form, "token"), field(form, "password"), address)).email;
  } catch (error) {
    if (error instanceof DomainError) return { error: error.detail };
    throw error;
  }
  return signInWith(email, field(form, "password"), "/dashboard");
}
