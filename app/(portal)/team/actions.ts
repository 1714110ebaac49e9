"use server";

// The Team page's actions: FormData → the command's schema → the command (lib/auth/commands.ts),
// which checks the role again (who may give which role, the last owner) and records the change.
import { revalidatePath } from "next/cache";
import { accountWriter, linkBase, memberFor } from "@/server/session";
import { parseBody } from "@/lib/domain";
import {
  changeMemberRole,
  invitationPath,
  invite,
  InviteBody,
  removeTeamMember,
  RoleChangeBody,
  withdrawInvite,
} from "@/lib/auth/commands";
import type { ButtonResult } from "../../_components/action-button";
import { attempt, field, type ActionState } from "../../_components/form-action";
import { onRow } from "../row-action";

export async function inviteAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("invite");
  if ("refused" in ctx) return { error: ctx.refused };
  const typed = { email: field(form, "email"), role: field(form, "role") };
  return attempt(
    async () => {
      const input = parseBody(InviteBody, typed);
      const token = await invite(ctx.app, ctx.partnerId, await accountWriter(ctx), input, await linkBase(ctx.app));
      revalidatePath("/team");
      // The link is shown too (emailed only when an address was given; mail can be slow or lost).
      return { link: invitationPath(token), ...(input.email ? { emailed: input.email } : {}) };
    },
    { email: typed.email.slice(0, 320), role: typed.role.slice(0, 20) },
  );
}

/** Gives a member another role (owners and admins; owners only to or from owner; an owner stays). */
export async function changeRoleAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("changeRole");
  if ("refused" in ctx) return { error: ctx.refused };
  return attempt(async () => {
    const input = parseBody(RoleChangeBody, { id: field(form, "id"), role: field(form, "role") });
    await changeMemberRole(ctx.app, ctx.partnerId, await accountWriter(ctx), input);
    revalidatePath("/team");
    return {};
  });
}

export async function removeMemberAction(form: FormData): Promise<ButtonResult> {
  return onRow("removeMember", form, "/team", (ctx, by, id) => removeTeamMember(ctx.app, ctx.partnerId, by, id));
}

export async function withdrawInvitationAction(form: FormData): Promise<ButtonResult> {
  return onRow("withdrawInvitation", form, "/team", (ctx, by, id) => withdrawInvite(ctx.app, ctx.partnerId, by, id));
}
