"use server";

import { AuthError } from "next-auth";
import { signIn } from "@/server/auth";
import { getApp } from "@/server/app";
import { acceptInvitation, signUp } from "@/lib/auth/accounts";
import { DomainError } from "@/lib/domain";

/** `values` gives back what was typed (never passwords): React resets a form after its action. */
export type FormState = { error?: string; values?: Record<string, string> } | undefined;

const field = (form: FormData, name: string) => String(form.get(name) ?? "");
const KEPT = ["email", "name", "organisation"];
const typed = (form: FormData) => Object.fromEntries(KEPT.map((name) => [name, field(form, name)]));

async function signInWith(email: string, password: string, redirectTo: string): Promise<FormState> {
  try {
    await signIn("credentials", { email, password, redirectTo });
  } catch (error) {
    if (error instanceof AuthError) {
      const code = (error as AuthError & { code?: string }).code;
      return { error: code === "throttled" ? "Too many failed attempts. Wait 15 minutes and try again." : "Wrong email or password." };
    }
    throw error; // the redirect after a successful sign-in
  }
}

export async function signInAction(_: FormState, form: FormData): Promise<FormState> {
  const next = field(form, "next");
  // Only a path on this site: "//host" and "/\\host" would leave it.
  const failed = await signInWith(field(form, "email"), field(form, "password"), /^\/(?![/\\])/.test(next) ? next : "/dashboard");
  return failed && { ...failed, values: typed(form) };
}

export async function signUpAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    await signUp((await getApp()).db, { organisation: field(form, "organisation"), name: field(form, "name"), email: field(form, "email"), password: field(form, "password") });
  } catch (error) {
    if (error instanceof DomainError) return { error: error.detail, values: typed(form) };
    throw error;
  }
  return signInWith(field(form, "email"), field(form, "password"), "/dashboard");
}

export async function acceptInviteAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    await acceptInvitation((await getApp()).db, field(form, "token"), { email: field(form, "email"), password: field(form, "password"), name: field(form, "name") });
  } catch (error) {
    if (error instanceof DomainError) return { error: error.detail, values: typed(form) };
    throw error;
  }
  return signInWith(field(form, "email"), field(form, "password"), "/dashboard");
}

