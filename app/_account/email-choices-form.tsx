"use client";

// The member's email choices: opt in to an email when a portfolio of the organisation completes.
import { useActionState } from "react";
import { SubmitButton } from "../_components/submit-button";
import type { ActionState } from "../_components/form-action";
import { SavedOrError } from "../_components/ui";
import { emailChoicesAction } from "./actions";

export function EmailChoicesForm({ portfolioCompleted }: { portfolioCompleted: boolean }) {
  const [state, action] = useActionState<ActionState, FormData>(emailChoicesAction, undefined);
  return (
    <form action={action} className="space-y-3">
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" name="portfolioCompleted" defaultChecked={portfolioCompleted} />
        Email me when a portfolio of my organisation completes (test and live)
      </label>
      <div className="flex items-center gap-3">
        <SubmitButton className="btn-secondary btn-sm" pendingText="Saving…">
          Save email choices
        </SubmitButton>
        <SavedOrError state={state} className="" />
      </div>
    </form>
  );
}
