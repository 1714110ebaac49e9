// Self-service password reset, wired: lib/auth/reset.ts's commands with the App's budgets (per email
// address and per client address, an hour each) and the security history. The portal's actions
// (app/(auth)/actions.ts) call these; so do the tests.
import { audited } from "@/lib/audit";
import { requestPasswordReset, resetPasswordWithToken, type ResetRequestAnswer } from "@/lib/auth/reset";
import type { User } from "@/lib/auth/users";
import type { App } from "./app";

type ResetApp = Pick<App, "db" | "config" | "logger" | "passwords" | "resetsPerEmail" | "resetsPerAddress">;

/**
 * A reset link for `email`'s account (emailed when there is one): both budgets are spent whatever
 * the address, so the answer and the limits say nothing of which accounts exist. Without a known
 * client address only the address's own budget holds (and all unknown clients share one).
 */
export async function askForPasswordReset(
  app: ResetApp,
  email: string,
  client: { address: string | null; base: string },
): Promise<ResetRequestAnswer> {
  return requestPasswordReset(app.db, email, {
    base: client.base,
    ttlMinutes: app.config.PASSWORD_RESET_TTL_MINUTES,
    async admit(address) {
      const perClient = await app.resetsPerAddress.hit(`password-reset:ip:${client.address ?? "any"}`);
      if (!perClient.allowed) return false;
      return (await app.resetsPerEmail.hit(`password-reset:email:${address}`)).allowed;
    },
  });
}

/** The link used once: the new password set, every session ended, and the history's row with it. */
export async function resetWithLink(
  app: ResetApp,
  token: string,
  password: string,
  address: string | null,
): Promise<User> {
  return audited(app, { userId: null, label: "password reset link", address }, async (tx) => {
    const user = await resetPasswordWithToken(tx, app.passwords, token, password);
    return {
      result: user,
      entry: { partnerId: user.partnerId, action: "password.reset_by_email", target: user.email },
    };
  });
}
