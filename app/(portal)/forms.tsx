"use client";

// Client forms whose result is shown in place: errors, a key or a secret shown once, a link.
import { useActionState } from "react";
import { CopyButton } from "../_components/copy-button";
import { FormError } from "../_components/ui";
import { createEndpointAction, createKeyAction, inviteAction, registerPropertyAction, type ActionState } from "./actions";

function Secret({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div role="status" className="mt-4 rounded-md border border-emerald-200 bg-emerald-50 p-3">
      <p className="text-sm font-medium text-emerald-900">{label}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code data-testid="secret-value" className="break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900 ring-1 ring-emerald-200">{value}</code>
        <CopyButton value={value} />
      </div>
      <p className="mt-2 text-xs text-emerald-900">{note}</p>
    </div>
  );
}

export function CreateKeyForm({ defaultMode }: { defaultMode: "test" | "live" }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(createKeyAction, undefined);
  return (
    <form action={action} className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end">
      <div>
        <label htmlFor="key-name" className="label">Name</label>
        <input id="key-name" name="name" className="input" placeholder="e.g. Mortgage origination backend" required maxLength={100} />
      </div>
      <div>
        <label htmlFor="key-mode" className="label">Mode</label>
        <select id="key-mode" name="mode" className="input" defaultValue={defaultMode}>
          <option value="test">Test</option>
          <option value="live">Live</option>
        </select>
      </div>
      <button className="btn" disabled={pending}>Create key</button>
      <div className="sm:col-span-3">
        <FormError message={state?.error} />
        {state?.key && <Secret label="Your new API key" value={state.key} note="Copy it now: it is shown only once. Send it in the X-API-Key header." />}
      </div>
    </form>
  );
}

export function RegisterPropertyForm() {
  const [state, action, pending] = useActionState<ActionState, FormData>(registerPropertyAction, undefined);
  return (
    <form action={action} className="space-y-2">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor="reference" className="label">Cadastral reference</label>
          <input id="reference" name="cadastral_reference" className="input font-mono" placeholder="2749704YJ0624N0001DI" required />
        </div>
        <button className="btn" disabled={pending}>{pending ? "Registering…" : "Register"}</button>
      </div>
      <FormError message={state?.error} />
    </form>
  );
}

export function CreateEndpointForm({ mode }: { mode: "test" | "live" }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(createEndpointAction, undefined);
  return (
    <form action={action} className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
      <div>
        <label htmlFor="endpoint-url" className="label">Endpoint URL</label>
        <input id="endpoint-url" name="url" type="url" className="input" placeholder="https://example.com/webhooks/finca" required />
      </div>
      <div>
        <label htmlFor="endpoint-description" className="label">Description</label>
        <input id="endpoint-description" name="description" className="input" placeholder="optional" />
      </div>
      <button className="btn" disabled={pending}>Add endpoint</button>
      <p className="text-xs text-slate-500 sm:col-span-3">{mode === "live" ? "Live endpoints must use https." : "Test endpoints may use http."} Private and internal addresses are refused.</p>
      <div className="sm:col-span-3">
        <FormError message={state?.error} />
        {state?.secret && <Secret label="Signing secret" value={state.secret} note="Use it to verify the webhook-signature header (Standard Webhooks). You can reveal it again below." />}
      </div>
    </form>
  );
}

export function InviteForm() {
  const [state, action, pending] = useActionState<ActionState, FormData>(inviteAction, undefined);
  const link = state?.link && typeof window !== "undefined" ? new URL(state.link, window.location.origin).toString() : state?.link;
  return (
    <form action={action} className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <div className="flex-1">
        <label htmlFor="invite-email" className="label">Email (optional: restricts the link to this address)</label>
        <input id="invite-email" name="email" type="email" className="input" />
      </div>
      <button className="btn" disabled={pending}>Create invitation link</button>
      {link && <div className="w-full"><Secret label="One-time invitation link (valid 7 days)" value={link} note="Send it to your colleague; it works once." /></div>}
    </form>
  );
}
