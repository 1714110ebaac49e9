"use server";

// The signed-in person's own account, for partners' users and operators alike: signing out, ending
// other sessions (lib/auth/commands.ts records each) and changing the password.
import { revalidatePath } from "next/cache";
import { signInWith, signOut } from "@/server/auth";
import { actorOf, requireUser, type PortalContext } from "@/server/session";
import { changeOwnPassword, endAllOtherSessions, endOtherSession, signOutSession } from "@/lib/auth/commands";
import { setPortfolioEmails } from "@/lib/auth/users";
import type { ButtonResult } from "../_components/action-button";
import { attempt, field, type ActionState } from "../_components/form-action";

const ownerOf = ({ user, sessionId }: PortalContext) => ({
  id: user.id,
  email: user.email,
  partnerId: user.partnerId,
  sessionId,
});

/** Ends this session only: a copy of its cookie stops working too; the user's other browsers stay. */
export async function signOutAction() {
  const ctx = await requireUser();
  await signOutSession(ctx.app, await actorOf(ctx), ownerOf(ctx));
  await signOut({ redirectTo: "/sign-in" });
}

/** Ends one of the user's other sessions (a browser left signed in elsewhere). */
export async function endSessionAction(form: FormData): Promise<ButtonResult> {
  const ctx = await requireUser();
  return attempt(async () => {
    const ended = await endOtherSession(ctx.app, await actorOf(ctx), ownerOf(ctx), field(form, "id"));
    revalidatePath("/", "layout");
    return ended ? undefined : { error: "That session had already ended." };
  });
}

export async function endOtherSessionsAction(): Promise<ButtonResult> {
  const ctx = await requireUser();
  await endAllOtherSessions(ctx.app, await actorOf(ctx), ownerOf(ctx));
  revalidatePath("/", "layout");
  return undefined;
}

/** Self-service password change: every session ends (copies elsewhere too), this one is renewed. */
export async function changePasswordAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await requireUser();
  // Passwords as typed: spaces are theirs.
  const input = { current: String(form.get("current") ?? ""), password: String(form.get("password") ?? "") };
  const actor = await actorOf(ctx);
  const refused = await attempt(() => changeOwnPassword(ctx.app, actor, ownerOf(ctx), input));
  if (refused) return refused;
  const home = field(form, "home") === "/admin" ? "/admin" : "";
  return signInWith(ctx.user.email, input.password, `${home}/account?changed=1`);
}

/** The member's email choices (a partner's member: operators have no portfolios). */
export async function emailChoicesAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await requireUser();
  if (!ctx.user.partnerId) return { error: "Only members of an organisation have portfolios." };
  await setPortfolioEmails(ctx.app.db, ctx.user.id, form.get("portfolioCompleted") === "on");
  revalidatePath("/account");
  return {};
}
