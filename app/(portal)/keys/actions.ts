"use server";

// The Keys page's actions: FormData → the command's schema → the command (lib/api-keys/commands.ts,
// lib/auth/commands.ts), which checks the role again and records the change. Each asks its entry of
// PORTAL_ACTIONS first: a server action is a public endpoint.
import { revalidatePath } from "next/cache";
import { accountWriter, memberFor } from "@/server/session";
import { parseBody } from "@/lib/domain";
import { createKey, CreateKeyBody, revokeKey, rollKey, RollKeyBody } from "@/lib/api-keys/commands";
import { LiveRequestBody, requestLive } from "@/lib/auth/commands";
import type { ButtonResult } from "../../_components/action-button";
import { attempt, field, type ActionState } from "../../_components/form-action";
import { onRow } from "../row-action";

export async function createKeyAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("createKey");
  if ("refused" in ctx) return { error: ctx.refused };
  const name = field(form, "name");
  return attempt(
    async () => {
      const input = parseBody(CreateKeyBody, { name, mode: field(form, "mode") });
      const made = await createKey(ctx.app, ctx.partnerId, await accountWriter(ctx), input);
      revalidatePath("/keys");
      return { key: made.key };
    },
    { name: name.slice(0, 100) },
  );
}

/** Rolls a key: a new one now, the old one until the chosen expiry. */
export async function rollKeyAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("rollKey");
  if ("refused" in ctx) return { error: ctx.refused };
  return attempt(async () => {
    const input = parseBody(RollKeyBody, { id: field(form, "id"), expires_in: field(form, "expires_in") });
    const rolled = await rollKey(ctx.app, ctx.partnerId, await accountWriter(ctx), input);
    if (!rolled)
      return {
        error: "This key is no longer active: it was revoked, expired or rolled to a shorter expiry meanwhile.",
      };
    revalidatePath("/keys");
    return { key: rolled.key, expiresAt: rolled.oldKeyExpiresAt.toISOString() };
  });
}

export async function revokeKeyAction(form: FormData): Promise<ButtonResult> {
  return onRow("revokeKey", form, "/keys", (ctx, by, id) => revokeKey(ctx.app, ctx.partnerId, by, id));
}

/** An owner asks Finca for live access: what the organisation is and will do with it. */
export async function requestLiveAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("requestLive");
  if ("refused" in ctx) return { error: ctx.refused };
  const typed = { company: field(form, "company"), contact: field(form, "contact"), use: field(form, "use") };
  const values = {
    company: typed.company.slice(0, 200),
    contact: typed.contact.slice(0, 200),
    use: typed.use.slice(0, 2000),
  };
  return attempt(async () => {
    await requestLive(ctx.app, ctx.partnerId, await accountWriter(ctx), parseBody(LiveRequestBody, typed));
    revalidatePath("/keys");
    return {};
  }, values);
}
