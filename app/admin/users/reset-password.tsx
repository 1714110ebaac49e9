"use client";

import { useActionState } from "react";
import { SubmitButton } from "../../_components/submit-button";
import { CopyButton } from "../../_components/copy-button";
import { adminResetPassword, type ResetState } from "../actions";

/** Resets a user's password and shows the new one once, in place. */
export function ResetPassword({ id, email }: { id: string; email: string }) {
  const [state, action] = useActionState<ResetState, FormData>(adminResetPassword, undefined);
  if (state?.password) {
    return (
      <div role="status" className="flex flex-wrap items-center justify-end gap-2 text-xs">
        <span>New password for {email}:</span>
        <code data-testid="new-password" className="rounded bg-slate-100 px-1.5 py-0.5 font-mono">
          {state.password}
        </code>
        <CopyButton value={state.password} />
      </div>
    );
  }
  return (
    <form action={action} className="inline">
      <input type="hidden" name="id" value={id} />
      <SubmitButton className="btn-secondary btn-sm" pendingText="Resetting…">
        Reset password
      </SubmitButton>
      {state?.error && (
        <span role="alert" className="ml-2 text-xs text-red-700">
          {state.error}
        </span>
      )}
    </form>
  );
}
