"use client";

import { useActionState } from "react";
import { SubmitButton } from "../../_components/submit-button";
import type { ActionState } from "../../_components/form-action";
import { Field } from "../../_components/field";
import { FormError } from "../../_components/ui";
import { registerPropertyAction } from "./actions";

export function RegisterPropertyForm({ mode }: { mode: "test" | "live" }) {
  const [state, action] = useActionState<ActionState, FormData>(registerPropertyAction, undefined);
  return (
    <form action={action} className="space-y-2">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <Field
          id="reference"
          name="cadastral_reference"
          label="Cadastral reference"
          className="flex-1"
          inputClassName="input font-mono uppercase"
          defaultValue={state?.values?.cadastral_reference}
          placeholder="2749704YJ0624N0001DI"
          required
          autoComplete="off"
          spellCheck={false}
          aria-describedby="reference-hint"
        />
        <SubmitButton pendingText="Registering…">Register</SubmitButton>
      </div>
      <p id="reference-hint" className="text-xs text-slate-600">
        14 characters (parcel) or 20 (unit); spaces and hyphens are ignored. Counts against your {mode} rate limit like
        an API request.
      </p>
      <FormError message={state?.error} />
    </form>
  );
}
