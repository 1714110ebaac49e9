"use client";

// The Team page's forms: an invitation link shown once, a member's role changed in place.
import { useActionState } from "react";
import { SubmitButton } from "../../_components/submit-button";
import type { ActionState } from "../../_components/form-action";
import { Secret } from "../../_components/secret";
import { Field } from "../../_components/field";
import { FormError, SavedOrError } from "../../_components/ui";
import type { TeamRole } from "@/lib/domain/words";
import { changeRoleAction, inviteAction } from "./actions";

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
  const [state, action] = useActionState<ActionState, FormData>(changeRoleAction, undefined);
  return (
    <form action={action} className="flex flex-wrap items-center justify-end gap-2">
      <input type="hidden" name="id" value={memberId} />
      <label htmlFor={`role-${memberId}`} className="sr-only">
        Role
      </label>
      <RoleSelect id={`role-${memberId}`} roles={roles} value={role} />
      <SubmitButton className="btn-secondary btn-sm" pendingText="Saving…">
        Change role
      </SubmitButton>
      <SavedOrError state={state} className="w-full text-right" />
    </form>
  );
}

export function InviteForm({ roles }: { roles: readonly TeamRole[] }) {
  const [state, action] = useActionState<ActionState, FormData>(inviteAction, undefined);
  const link = state?.link ? new URL(state.link, window.location.origin).toString() : null;
  return (
    <form action={action} className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <Field
          id="invite-email"
          name="email"
          label="Email"
          optional="only this address can use the link; it is emailed there"
          className="flex-1"
          type="email"
          defaultValue={state?.values?.email}
          autoComplete="off"
        />
        <div>
          <label htmlFor="invite-role" className="label">
            Role
          </label>
          <RoleSelect id="invite-role" roles={roles} value={state?.values?.role} />
        </div>
        <SubmitButton pendingText="Creating…">Create invitation link</SubmitButton>
      </div>
      <FormError message={state?.error} />
      {link && (
        <Secret
          label="One-time invitation link (valid 7 days)"
          value={link}
          note={
            state?.emailed
              ? `Emailed to ${state.emailed}; you can also pass it on yourself. It works once.`
              : "Send it to your colleague over a channel you trust; it works once."
          }
        />
      )}
    </form>
  );
}
