"use server";

import { headers } from "next/headers";
import { signInWith } from "@/server/auth";
import { getApp } from "@/server/app";
import { audited } from "@/lib/audit";
import { acceptInvitation, signUp } from "@/lib/auth/accounts";
import { safeNextPath } from "@/lib/auth/redirect";
import { clientAddressOf } from "@/server/address";
import { DomainError } from "@/lib/domain";

/** `values` gives back what was typed (never passwords): React resets a form after its action. */
export type FormState = { error?: string; values?: Record<string, string> } | undefined;

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
