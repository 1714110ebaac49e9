"use client";

// The Keys page's forms: a new key or a rolled one shown once, the request for live access.
import { useActionState } from "react";
import { SubmitButton } from "../../_components/submit-button";
import type { ActionState } from "../../_components/form-action";
import { Secret } from "../../_components/secret";
import { Field } from "../../_components/field";
import { FormError, Time } from "../../_components/ui";
import { createKeyAction, requestLiveAction, rollKeyAction } from "./actions";

/** An owner's request for live access: the company, a contact and the intended use. */
export function LiveRequestForm() {
  const [state, action] = useActionState<ActionState, FormData>(requestLiveAction, undefined);
  return (
    <form action={action} className="grid gap-3 sm:grid-cols-2">
      <Field id="live-company" name="company" label="Company (legal name)" defaultValue={state?.values?.company} />
      <Field
        id="live-contact"
        name="contact"
        label="Contact (name, email or phone)"
        defaultValue={state?.values?.contact}
      />
      <div className="sm:col-span-2">
        <label htmlFor="live-use" className="label">
          Intended use
        </label>
        <textarea id="live-use" name="use" rows={3} className="input" defaultValue={state?.values?.use} />
      </div>
      <div className="sm:col-span-2">
        <SubmitButton pendingText="Sending…">Request live access</SubmitButton>
        <FormError message={state?.error} />
      </div>
    </form>
  );
}

/** A new key, shown once; live is offered once the organisation has live access (`live`). */
export function CreateKeyForm({ defaultMode, live }: { defaultMode: "test" | "live"; live: boolean }) {
  const [state, action] = useActionState<ActionState, FormData>(createKeyAction, undefined);
  return (
    <form action={action} className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end">
      <Field
        id="key-name"
        name="name"
        label="Name"
        placeholder="e.g. Mortgage origination backend"
        required
        maxLength={100}
        aria-describedby="key-name-hint"
      />
      <div>
        <label htmlFor="key-mode" className="label">
          Mode
        </label>
        <select id="key-mode" name="mode" className="input" defaultValue={defaultMode}>
          <option value="test">Test (sandbox)</option>
          {live && <option value="live">Live</option>}
        </select>
      </div>
      <SubmitButton pendingText="Creating…">Create key</SubmitButton>
      <p id="key-name-hint" className="text-xs text-slate-600 sm:col-span-3">
        Name keys after the system that uses them, so you know which one to revoke.
        {!live && " Live keys can be made once Finca has approved your organisation's live access (below)."}
      </p>
      {(state?.error || state?.key) && (
        <div className="sm:col-span-3">
          <FormError message={state?.error} />
          {state?.key && (
            <Secret
              label="Your new API key"
              value={state.key}
              note="Copy it now: it is shown only once. Send it in the X-API-Key header."
            />
          )}
        </div>
      )}
    </form>
  );
}

const ROLL_CHOICES = [
  ["now", "Now"],
  ["1h", "In 1 hour"],
  ["24h", "In 24 hours"],
  ["3d", "In 3 days"],
  ["7d", "In 7 days"],
] as const;

/**
 * Stripe's "roll key": a new key now; the old one keeps working until the chosen expiry. One form
 * above the list (not in a row): the rolled key may leave the active list, the new key must stay.
 */
export function RollKeyForm({ keys }: { keys: { id: string; label: string }[] }) {
  const [state, action] = useActionState<ActionState, FormData>(rollKeyAction, undefined);
  return (
    <form action={action} className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
        <div>
          <label htmlFor="roll-key" className="label">
            Key to roll
          </label>
          <select id="roll-key" name="id" className="input font-mono text-xs" required>
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="roll-expiry" className="label">
            Old key stops working
          </label>
          <select id="roll-expiry" name="expires_in" className="input" defaultValue="24h">
            {ROLL_CHOICES.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </div>
        <SubmitButton pendingText="Rolling…">Roll key</SubmitButton>
      </div>
      <FormError message={state?.error} />
      {state?.key && (
        <Secret
          label="Your new API key"
          value={state.key}
          note={
            <>
              Copy it now: it is shown only once. The old key works until <Time value={state.expiresAt} seconds />.
            </>
          }
        />
      )}
    </form>
  );
}
