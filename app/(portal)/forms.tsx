"use client";

// Client forms whose result is shown in place: errors, a key or a secret shown once, a link.
import { useActionState, useState, useTransition } from "react";
import { usePathname } from "next/navigation";
import { CopyButton } from "../_components/copy-button";
import { FormError, Time } from "../_components/ui";
import { EVENT_TYPES, type TeamRole } from "@/lib/domain/words";
import {
  changeRoleAction,
  createEndpointAction,
  createKeyAction,
  requestLiveAction,
  expireOldSecretAction,
  rollKeyAction,
  rotateSecretAction,
  inviteAction,
  registerPropertyAction,
  revealSecretAction,
  switchMode,
  updateEndpointAction,
  type ActionState,
} from "./actions";

function Secret({ label, value, note }: { label: string; value: string; note: React.ReactNode }) {
  return (
    <div role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-3">
      <p className="text-sm font-medium text-emerald-900">{label}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code
          data-testid="secret-value"
          className="min-w-0 break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900 ring-1 ring-emerald-200"
        >
          {value}
        </code>
        <CopyButton value={value} />
      </div>
      <p className="mt-2 text-xs text-emerald-900">{note}</p>
    </div>
  );
}

/**
 * Test and live. Without live access there is no live mode: "live" leads to the request form on the
 * API keys page (`request`), or is shown unavailable to a role that cannot see that page.
 */
export function ModeSwitch({ mode, live }: { mode: "test" | "live"; live: "granted" | "request" | "unavailable" }) {
  const pathname = usePathname();
  const tab = "rounded-md px-2.5 py-1 text-xs font-semibold uppercase tracking-wide";
  return (
    // The group is a div inside the form: a form may not take role="group" (axe aria-allowed-role).
    <form action={switchMode}>
      <input type="hidden" name="from" value={pathname} />
      <div role="group" aria-label="Data mode" className="inline-flex rounded-lg bg-slate-100 p-0.5">
        {(["test", "live"] as const).map((m) =>
          m === "live" && live !== "granted" ? (
            live === "request" ? (
              <a
                key={m}
                href="/keys#live-access"
                aria-label="live: request live access"
                className={`${tab} text-slate-700 hover:text-slate-950`}
              >
                live
              </a>
            ) : (
              <span key={m} title="Your organisation has no live access yet" className={`${tab} text-slate-500`}>
                live<span className="sr-only">: not available, your organisation has no live access yet</span>
              </span>
            )
          ) : (
            <button
              type="submit"
              key={m}
              name="mode"
              value={m}
              aria-pressed={mode === m}
              className={`rounded-md px-2.5 py-1 text-xs font-semibold uppercase tracking-wide ${
                mode === m
                  ? m === "live"
                    ? "bg-violet-700 text-white shadow-sm"
                    : "bg-amber-500 text-slate-950 shadow-sm"
                  : "text-slate-700 hover:text-slate-950"
              }`}
            >
              {m}
            </button>
          ),
        )}
      </div>
    </form>
  );
}

/** An owner's request for live access: the company, a contact and the intended use. */
export function LiveRequestForm() {
  const [state, action, pending] = useActionState<ActionState, FormData>(requestLiveAction, undefined);
  return (
    <form action={action} className="grid gap-3 sm:grid-cols-2">
      <div>
        <label htmlFor="live-company" className="label">
          Company (legal name)
        </label>
        <input id="live-company" name="company" className="input" defaultValue={state?.values?.company} />
      </div>
      <div>
        <label htmlFor="live-contact" className="label">
          Contact (name, email or phone)
        </label>
        <input id="live-contact" name="contact" className="input" defaultValue={state?.values?.contact} />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor="live-use" className="label">
          Intended use
        </label>
        <textarea id="live-use" name="use" rows={3} className="input" defaultValue={state?.values?.use} />
      </div>
      <div className="sm:col-span-2">
        <button type="submit" className="btn" disabled={pending}>
          {pending ? "Sending…" : "Request live access"}
        </button>
        <FormError message={state?.error} />
      </div>
    </form>
  );
}

export function CreateKeyForm({ defaultMode }: { defaultMode: "test" | "live" }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(createKeyAction, undefined);
  return (
    <form action={action} className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end">
      <div>
        <label htmlFor="key-name" className="label">
          Name
        </label>
        <input
          id="key-name"
          name="name"
          className="input"
          placeholder="e.g. Mortgage origination backend"
          required
          maxLength={100}
          aria-describedby="key-name-hint"
        />
      </div>
      <div>
        <label htmlFor="key-mode" className="label">
          Mode
        </label>
        <select id="key-mode" name="mode" className="input" defaultValue={defaultMode}>
          <option value="test">Test (sandbox)</option>
          <option value="live">Live</option>
        </select>
      </div>
      <button type="submit" className="btn" disabled={pending}>
        {pending ? "Creating…" : "Create key"}
      </button>
      <p id="key-name-hint" className="text-xs text-slate-600 sm:col-span-3">
        Name keys after the system that uses them, so you know which one to revoke.
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
  const [state, action, pending] = useActionState<ActionState, FormData>(rollKeyAction, undefined);
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
        <button type="submit" className="btn" disabled={pending}>
          {pending ? "Rolling…" : "Roll key"}
        </button>
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

export function RegisterPropertyForm({ mode }: { mode: "test" | "live" }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(registerPropertyAction, undefined);
  return (
    <form action={action} className="space-y-2">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor="reference" className="label">
            Cadastral reference
          </label>
          <input
            id="reference"
            name="cadastral_reference"
            defaultValue={state?.values?.cadastral_reference}
            className="input font-mono uppercase"
            placeholder="2749704YJ0624N0001DI"
            required
            autoComplete="off"
            spellCheck={false}
            aria-describedby="reference-hint"
          />
        </div>
        <button type="submit" className="btn" disabled={pending}>
          {pending ? "Registering…" : "Register"}
        </button>
      </div>
      <p id="reference-hint" className="text-xs text-slate-600">
        14 characters (parcel) or 20 (unit); spaces and hyphens are ignored. Counts against your {mode} rate limit like
        an API request.
      </p>
      <FormError message={state?.error} />
    </form>
  );
}

export function CreateEndpointForm({ mode, allowPrivate }: { mode: "test" | "live"; allowPrivate: boolean }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(createEndpointAction, undefined);
  return (
    <form action={action} className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
      <div>
        <label htmlFor="endpoint-url" className="label">
          Endpoint URL
        </label>
        <input
          id="endpoint-url"
          name="url"
          type="url"
          defaultValue={state?.values?.url}
          className="input"
          placeholder="https://example.com/webhooks/finca"
          required
          maxLength={2048}
          aria-describedby="endpoint-url-hint"
        />
      </div>
      <div>
        <label htmlFor="endpoint-description" className="label">
          Description <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input
          id="endpoint-description"
          name="description"
          defaultValue={state?.values?.description}
          className="input"
          maxLength={500}
        />
      </div>
      <button type="submit" className="btn" disabled={pending}>
        {pending ? "Adding…" : "Add endpoint"}
      </button>
      <fieldset className="sm:col-span-3">
        <legend className="label">Events</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-1">
          {EVENT_TYPES.map((type) => (
            <label key={type} className="inline-flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                name="event_types"
                value={type}
                defaultChecked={state?.values?.event_types?.split(",").includes(type) ?? true}
              />
              <span className="font-mono">{type}</span>
            </label>
          ))}
        </div>
        <p className="mt-1 text-xs text-slate-600">
          With every box ticked the endpoint also receives types added later. Test events always reach it.
        </p>
      </fieldset>
      <p id="endpoint-url-hint" className="text-xs text-slate-600 sm:col-span-3">
        {mode === "live" ? "Live endpoints must use https." : "Test endpoints may use http."}{" "}
        {allowPrivate
          ? "This server accepts private and loopback addresses (FINCA_WEBHOOKS_ALLOW_PRIVATE: development only)."
          : "Private, loopback and internal addresses are refused."}
      </p>
      {(state?.error || state?.secret) && (
        <div className="sm:col-span-3">
          <FormError message={state?.error} />
          {state?.secret && (
            <Secret
              label="Signing secret"
              value={state.secret}
              note="Verify the webhook-signature header with it (Standard Webhooks). You can reveal it again on the endpoint."
            />
          )}
        </div>
      )}
    </form>
  );
}

/** An endpoint's URL and description, edited in place (the API's PATCH); its secret stays. */
export function EditEndpointForm({
  endpointId,
  url,
  description,
  mode,
  allowPrivate,
}: {
  endpointId: string;
  url: string;
  description: string | null;
  mode: "test" | "live";
  allowPrivate: boolean;
}) {
  const [state, action, pending] = useActionState<ActionState, FormData>(updateEndpointAction, undefined);
  return (
    <form action={action} aria-label="Edit endpoint" className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
      <input type="hidden" name="id" value={endpointId} />
      <div>
        <label htmlFor="edit-endpoint-url" className="label">
          URL
        </label>
        <input
          id="edit-endpoint-url"
          name="url"
          type="url"
          defaultValue={state?.values?.url ?? url}
          className="input"
          required
          maxLength={2048}
          aria-describedby="edit-endpoint-url-hint"
        />
      </div>
      <div>
        <label htmlFor="edit-endpoint-description" className="label">
          Description <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input
          id="edit-endpoint-description"
          name="description"
          defaultValue={state?.values?.description ?? description ?? ""}
          className="input"
          maxLength={500}
        />
      </div>
      <button type="submit" className="btn-secondary" disabled={pending}>
        {pending ? "Saving…" : "Save changes"}
      </button>
      <p id="edit-endpoint-url-hint" className="text-xs text-slate-600 sm:col-span-3">
        A new URL receives the next attempts, retries of earlier events included; the signing secret stays.{" "}
        {mode === "live" ? "Live endpoints must use https." : "Test endpoints may use http."}
        {!allowPrivate && " Private, loopback and internal addresses are refused."}
      </p>
      <div role="status" className="text-sm sm:col-span-3">
        {state && !state.error && <p className="text-emerald-800">Saved.</p>}
        <FormError message={state?.error} />
      </div>
    </form>
  );
}

/** The endpoint's signing secrets, fetched from the server on demand. */
export function RevealSecret({ endpointId }: { endpointId: string }) {
  const [revealed, setRevealed] = useState<Awaited<ReturnType<typeof revealSecretAction>> | null>(null);
  const [pending, start] = useTransition();
  if (!revealed || "error" in revealed) {
    return (
      <div>
        <button
          type="button"
          className="btn-secondary"
          disabled={pending}
          onClick={() => start(async () => setRevealed(await revealSecretAction(endpointId)))}
        >
          {pending ? "Revealing…" : "Reveal signing secret"}
        </button>
        <FormError message={revealed && "error" in revealed ? revealed.error : undefined} />
      </div>
    );
  }
  const { secrets } = revealed;
  return (
    <div className="w-full space-y-2" role="status">
      {secrets.map((s) => (
        <div key={s.value} className="flex flex-wrap items-center gap-2">
          <code
            data-testid="signing-secret"
            className="min-w-0 break-all rounded bg-slate-100 px-2 py-1 font-mono text-xs text-slate-900"
          >
            {s.value}
          </code>
          <CopyButton value={s.value} />
          {s.expiresAt && (
            <span className="text-xs text-slate-600">
              previous secret, still signing until {s.expiresAt.slice(0, 16).replace("T", " ")} UTC
            </span>
          )}
        </div>
      ))}
      <button type="button" className="text-xs font-medium text-brand-700 underline" onClick={() => setRevealed(null)}>
        Hide
      </button>
    </div>
  );
}

/**
 * Rotation in two steps: the partner first reads what happens to the current secret and chooses how
 * long it keeps signing beside the new one; while an earlier overlap is open, the rotation also needs
 * the partner to confirm that the previous secret stops signing now (the server refuses it otherwise).
 * The old secret's overlap can be brought forward to now.
 */
export function RotateSecretForm({ endpointId, overlapEndsAt }: { endpointId: string; overlapEndsAt: string | null }) {
  const [confirming, setConfirming] = useState(false);
  const [endOverlap, setEndOverlap] = useState(false);
  const [rotated, rotate, rotating] = useActionState<ActionState, FormData>(async (previous, form) => {
    const state = await rotateSecretAction(previous, form);
    if (!state?.error) setConfirming(false);
    return state;
  }, undefined);
  const [expired, expire, expiring] = useActionState<ActionState, FormData>(expireOldSecretAction, undefined);
  // The page's own state wins once it re-renders; the action's answer shows what just happened.
  const endsAt =
    overlapEndsAt ?? (expired?.expiresAt || rotated?.expiresAt === "now" ? null : (rotated?.expiresAt ?? null));
  return (
    <div className="space-y-2">
      {!confirming && (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-secondary"
            onClick={() => {
              setEndOverlap(false);
              setConfirming(true);
            }}
          >
            Rotate secret…
          </button>
          {endsAt && (
            <form action={expire}>
              <input type="hidden" name="id" value={endpointId} />
              <button type="submit" className="btn-secondary" disabled={expiring}>
                {expiring ? "Expiring…" : "Expire old secret now"}
              </button>
            </form>
          )}
        </div>
      )}
      {confirming && (
        <form action={rotate} aria-label="Rotate secret" className="space-y-3 rounded-lg border border-slate-200 p-3">
          <input type="hidden" name="id" value={endpointId} />
          <p className="text-sm text-slate-700">
            A new secret signs every delivery from now on. Your receiver must verify with it: deploy it (Reveal) before
            the current secret stops signing.
          </p>
          <div>
            <label htmlFor="rotate-overlap" className="label">
              The current secret keeps signing beside the new one
            </label>
            <select id="rotate-overlap" name="overlap" defaultValue="24h" className="input sm:w-64">
              <option value="24h">for 24 hours</option>
              <option value="1h">for 1 hour</option>
              <option value="now">no longer: it stops now</option>
            </select>
          </div>
          {endsAt && (
            <label className="flex items-start gap-2 text-sm text-amber-900">
              <input
                type="checkbox"
                name="end_overlap"
                value="yes"
                checked={endOverlap}
                onChange={(e) => setEndOverlap(e.target.checked)}
                className="mt-1"
              />
              <span>
                An earlier rotation is still in its overlap: the previous secret signs until <Time value={endsAt} />. It
                stops signing now if you rotate again. I confirm.
              </span>
            </label>
          )}
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn" disabled={rotating || Boolean(endsAt && !endOverlap)}>
              {rotating ? "Rotating…" : "Confirm rotation"}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <div role="status" className="text-sm">
        {rotated?.expiresAt === "now" && !expired?.expiresAt && (
          <p className="text-emerald-800">
            Secret rotated. Only the new secret signs from now on: deploy it (Reveal) at once.
          </p>
        )}
        {rotated?.expiresAt && rotated.expiresAt !== "now" && !expired?.expiresAt && (
          <p className="text-emerald-800">
            Secret rotated. New deliveries are signed with the new secret and, until{" "}
            <Time value={endsAt ?? rotated.expiresAt} />, with the old one too: deploy the new secret (Reveal) before
            then.
          </p>
        )}
        {!rotated?.expiresAt && endsAt && (
          <p className="text-slate-700">
            The previous secret also signs until <Time value={endsAt} />.
          </p>
        )}
        {expired?.expiresAt && (
          <p className="text-emerald-800">
            Old secret expired: from the next attempt on, only the current secret signs.
          </p>
        )}
        <FormError message={rotated?.error ?? expired?.error} />
      </div>
    </div>
  );
}

/** What each role may do, as the team page's choices say it (lib/domain/roles.ts decides). */
const ROLE_NOTES: Record<TeamRole, string> = {
  owner: "owner: everything, owners included",
  admin: "admin: everything but owners",
  developer: "developer: keys, webhooks, properties",
  viewer: "viewer: reads; no keys, no secrets, no changes",
};

function RoleSelect({ id, roles, value }: { id: string; roles: readonly TeamRole[]; value?: string }) {
  return (
    <select id={id} name="role" defaultValue={value ?? "developer"} className="input">
      {roles.map((role) => (
        <option key={role} value={role}>
          {ROLE_NOTES[role]}
        </option>
      ))}
    </select>
  );
}

/** A member's role, changed in place by an owner or admin (`roles`: those they may give). */
export function RoleForm({ memberId, role, roles }: { memberId: string; role: TeamRole; roles: readonly TeamRole[] }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(changeRoleAction, undefined);
  return (
    <form action={action} className="flex flex-wrap items-center justify-end gap-2">
      <input type="hidden" name="id" value={memberId} />
      <label htmlFor={`role-${memberId}`} className="sr-only">
        Role
      </label>
      <RoleSelect id={`role-${memberId}`} roles={roles} value={role} />
      <button type="submit" className="btn-secondary btn-sm" disabled={pending}>
        {pending ? "Saving…" : "Change role"}
      </button>
      <div role="status" className="w-full text-right text-sm">
        {state && !state.error && <p className="text-emerald-800">Saved.</p>}
        <FormError message={state?.error} />
      </div>
    </form>
  );
}

export function InviteForm({ roles }: { roles: readonly TeamRole[] }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(inviteAction, undefined);
  const link = state?.link ? new URL(state.link, window.location.origin).toString() : null;
  return (
    <form action={action} className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor="invite-email" className="label">
            Email <span className="font-normal text-slate-500">(optional: only this address can use the link)</span>
          </label>
          <input
            id="invite-email"
            name="email"
            type="email"
            defaultValue={state?.values?.email}
            className="input"
            autoComplete="off"
          />
        </div>
        <div>
          <label htmlFor="invite-role" className="label">
            Role
          </label>
          <RoleSelect id="invite-role" roles={roles} value={state?.values?.role} />
        </div>
        <button type="submit" className="btn" disabled={pending}>
          {pending ? "Creating…" : "Create invitation link"}
        </button>
      </div>
      <FormError message={state?.error} />
      {link && (
        <Secret
          label="One-time invitation link (valid 7 days)"
          value={link}
          note="Send it to your colleague over a channel you trust; it works once."
        />
      )}
    </form>
  );
}
