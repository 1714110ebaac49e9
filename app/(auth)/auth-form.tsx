"use client";

import { useActionState } from "react";
import { SubmitButton } from "../_components/submit-button";
import { FormError } from "../_components/ui";
import type { FormState } from "./actions";

type Field = {
  name: string;
  label: string;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  hint?: string;
  defaultValue?: string;
};

/** One form for sign-in, sign-up and invitations: labelled fields, a pending state, an error line. */
export function AuthForm({
  action,
  fields,
  submit,
  hidden = {},
}: {
  action: (s: FormState, f: FormData) => Promise<FormState>;
  fields: Field[];
  submit: string;
  hidden?: Record<string, string>;
}) {
  const [state, formAction] = useActionState(action, undefined);
  return (
    <form action={formAction} className="space-y-4">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {fields.map((f) => (
        <div key={f.name}>
          <label htmlFor={f.name} className="label">
            {f.label}
          </label>
          <input
            id={f.name}
            name={f.name}
            type={f.type ?? "text"}
            autoComplete={f.autoComplete}
            required={f.required ?? true}
            defaultValue={state?.values?.[f.name] ?? f.defaultValue}
            className="input"
            aria-describedby={f.hint ? `${f.name}-hint` : undefined}
          />
          {f.hint && (
            <p id={`${f.name}-hint`} className="mt-1 text-xs text-slate-500">
              {f.hint}
            </p>
          )}
        </div>
      ))}
      <FormError message={state?.error} />
      {state?.notice && (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
          {state.notice}
        </p>
      )}
      <SubmitButton className="btn w-full" pendingText="Please wait…">
        {submit}
      </SubmitButton>
    </form>
  );
}
