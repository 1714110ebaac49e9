"use client";

// The Webhooks pages' forms: an endpoint added or edited, its signing secret shown and rotated.
import { useActionState, useState, useTransition } from "react";
import { SubmitButton } from "../../_components/submit-button";
import { CopyButton } from "../../_components/copy-button";
import type { ActionState } from "../../_components/form-action";
import { Secret } from "../../_components/secret";
import { Field } from "../../_components/field";
import { FormError, SavedOrError, Time } from "../../_components/ui";
import { EVENT_TYPES } from "@/lib/domain/words";
import {
  createEndpointAction,
  expireOldSecretAction,
  revealSecretAction,
  rotateSecretAction,
  updateEndpointAction,
} from "./actions";

export function CreateEndpointForm({ mode, allowPrivate }: { mode: "test" | "live"; allowPrivate: boolean }) {
  const [state, action] = useActionState<ActionState, FormData>(createEndpointAction, undefined);
  return (
    <form action={action} className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
      <Field
        id="endpoint-url"
        name="url"
        label="Endpoint URL"
        type="url"
        defaultValue={state?.values?.url}
        placeholder="https://example.com/webhooks/finca"
        required
        maxLength={2048}
        aria-describedby="endpoint-url-hint"
      />
      <Field
        id="endpoint-description"
        name="description"
        label="Description"
        optional
        defaultValue={state?.values?.description}
        maxLength={500}
      />
      <SubmitButton pendingText="Adding…">Add endpoint</SubmitButton>
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
  const [state, action] = useActionState<ActionState, FormData>(updateEndpointAction, undefined);
  return (
    <form action={action} aria-label="Edit endpoint" className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
      <input type="hidden" name="id" value={endpointId} />
      <Field
        id="edit-endpoint-url"
        name="url"
        label="URL"
        type="url"
        defaultValue={state?.values?.url ?? url}
        required
        maxLength={2048}
        aria-describedby="edit-endpoint-url-hint"
      />
      <Field
        id="edit-endpoint-description"
        name="description"
        label="Description"
        optional
        defaultValue={state?.values?.description ?? description ?? ""}
        maxLength={500}
      />
      <SubmitButton className="btn-secondary" pendingText="Saving…">
        Save changes
      </SubmitButton>
      <p id="edit-endpoint-url-hint" className="text-xs text-slate-600 sm:col-span-3">
        A new URL receives the next attempts, retries of earlier events included; the signing secret stays.{" "}
        {mode === "live" ? "Live endpoints must use https." : "Test endpoints may use http."}
        {!allowPrivate && " Private, loopback and internal addresses are refused."}
      </p>
      <SavedOrError state={state} className="sm:col-span-3" />
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
