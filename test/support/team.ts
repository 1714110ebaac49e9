// An organisation as the team tests need one: its owner signed up, and one member of each role
// asked for, each invited with that role and joined.
import { acceptInvitation, signUp } from "@/lib/auth/accounts";
import { createInvitation } from "@/lib/auth/team";
import type { User } from "@/lib/auth/users";
import { DomainError, type TeamRole } from "@/lib/domain";
import type { App } from "@/server/app";

let n = 0;

export async function organisation<R extends Exclude<TeamRole, "owner">>(app: App, roles: readonly R[]) {
  const tag = `${Date.now()}-${++n}`;
  const owner = await signUp(app, {
    organisation: `Team ${tag}`,
    email: `owner-${tag}@example.test`,
    password: "pw-owner-1234",
  });
  const partnerId = owner.partnerId!;
  const members = {} as Record<R, User>;
  for (const role of roles) {
    const token = await createInvitation(app.db, partnerId, owner, { role });
    members[role] = await acceptInvitation(app, token, {
      email: `${role}-${tag}@example.test`,
      password: "pw-member-1234",
    });
  }
  return { partnerId, owner, ...members };
}

/** The domain's refusal of `promise` (null when it went through); any other error is the test's failure. */
export const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof DomainError ? error : Promise.reject(error)),
  );
