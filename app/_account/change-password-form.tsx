"use client";

import { useActionState } from "react";
import { SubmitButton } from "../_components/submit-button";
import type { ActionState } from "../_components/form-action";
import { FormError } from "../_components/ui";
import { changePasswordAction } from "./actions";

export function ChangePasswordForm({ home, minLength }: { home: "/admin" | "/dashboard"; minLength: number }) {
  const [state, action] = useActionState<ActionState, FormData>(changePasswordAction, undefined);
  return (
    <form action={action} className="max-w-md space-y-3">
      <input type="hidden" name="home" value={home} />
      <div>
        <label htmlFor="current-password" className="label">
          Current password
        </label>
        <input
          id="current-password"
          name="current"
          type="password"
          className="input"
          autoComplete="current-password"
          required
          maxLength={1024}
        />
      </div>
      <div>
        <label htmlFor="new-password" className="label">
          New password <span className="font-normal text-slate-500">(at least {minLength} characters)</span>
        </label>
        <input
          id="new-password"
          name="password"
          type="password"
          className="input"
          autoComplete="new-password"
          required
          minLength={minLength}
          maxLength={1024}
        />
      </div>
      <FormError message={state?.error} />
      <SubmitButton pendingText="Changing…">Change password</SubmitButton>
    </form>
  );
}
