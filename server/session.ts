// Server-side guards for pages and actions: the session is re-checked against the database on every
// request, so a removed or disabled user, a changed password or role (the session version it was
// issued under no longer matches), or a session ended (signed out, or ended from another browser)
// is signed out at once.
import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import type { schema } from "@/lib/db";
import { getUser, sessionIsCurrent } from "@/lib/auth/users";
import { sessionAlive } from "@/lib/auth/sessions";
import { askedOrigin } from "@/lib/http/origin";
import { clientAddressOf } from "./address";
import { userActor, type Actor, type Writer } from "@/lib/audit";
import { accountBucket, budgetOn } from "@/lib/rate-limit";
import {
  can,
  PORTAL_ACTIONS,
  refusalOf,
  type Mode,
  type Permission,
  type PortalAction,
  type Scope,
} from "@/lib/domain";
import { hasLiveAccess, NO_LIVE_ACCESS } from "@/lib/partners/live";
import { getApp, type App } from "./app";
import { auth } from "./auth";

export const MODE_COOKIE = "finca_mode";

export interface PortalContext {
  app: App;
  user: typeof schema.users.$inferSelect;
  /** This browser's session (lib/auth/sessions.ts). */
  sessionId: string;
}

/** The signed-in user with a current session, or null (public pages that adapt to a visitor). */
export async function currentUser(): Promise<PortalContext | null> {
  const session = await auth();
  if (!session?.user?.id) return null;
  const app = await getApp();
  const user = await getUser(app.db, session.user.id);
  const { sessionVersion, sessionId } = session.user;
  return sessionIsCurrent(user, sessionVersion) && (await sessionAlive(app.db, user.id, sessionId))
    ? { app, user, sessionId }
    : null;
}

/** The signed-in user as the security history names them, with the address this request came from. */
export async function actorOf({ app, user }: PortalContext): Promise<Actor> {
  return userActor(user, clientAddressOf(await headers(), app.config));
}

/**
 * The member as a command's writer: named in the security history, counted on the account's own
 * budget (the size of the API's), so a bulk load that spent the API's cannot lock the partner out
 * of its account.
 */
export async function accountWriter(ctx: PortalContext & { scope: Scope }): Promise<Writer> {
  return { actor: await actorOf(ctx), budget: budgetOn(ctx.app.rateLimiter, accountBucket(ctx.scope)) };
}

export async function requireUser(): Promise<PortalContext> {
  return (await currentUser()) ?? redirect("/sign-in");
}

/**
 * The origin this page was asked on, for examples a reader can paste (the API base URL). The Host
 * header is the reader's own: it only changes what that reader sees.
 */
export async function requestOrigin(): Promise<string> {
  return askedOrigin(await headers()) ?? "http://localhost:3000";
}

/**
 * The origin links in emails point to: PUBLIC_BASE_URL, else this request's (only ever for mail
 * held in the outbox: SMTP_URL needs PUBLIC_BASE_URL, so no mail leaves with a host a request named).
 */
export async function linkBase(app: { config: { PUBLIC_BASE_URL?: string } }): Promise<string> {
  return app.config.PUBLIC_BASE_URL ?? (await requestOrigin());
}

export type PartnerContext = PortalContext & {
  partnerId: string;
  mode: Mode;
  scope: Scope;
  /** The cookie asked for live mode, which the organisation has no live access for (now): shown test. */
  liveRefused: boolean;
};

/**
 * A member of a partner's organisation, with the portal's current mode: test unless switched to
 * live, and live only while the organisation has live access (checked on every request, so a
 * refusal or revocation holds from the next one; a hand-set cookie gets the test view). A page
 * that needs `permission` (lib/domain/roles.ts) answers 403 to a role without it.
 */
export async function requirePartner(permission?: Permission): Promise<PartnerContext> {
  const ctx = await requireUser();
  const partnerId = ctx.user.partnerId;
  if (!partnerId) redirect("/admin");
  const asked = (await cookies()).get(MODE_COOKIE)?.value === "live";
  const liveRefused = asked && !(await hasLiveAccess(ctx.app.db, partnerId));
  const mode: Mode = asked && !liveRefused ? "live" : "test";
  if (permission && !can(ctx.user.role, permission, mode)) forbidden();
  return { ...ctx, partnerId, mode, scope: { partnerId, mode }, liveRefused };
}

/**
 * A member allowed to take `action` (its permission in PORTAL_ACTIONS), or the refusal the form or
 * button shows: every portal action asks this first, whatever the page showed. An action sent in
 * live mode without live access is refused, never carried out in test mode instead.
 */
export async function memberFor(action: PortalAction): Promise<PartnerContext | { refused: string }> {
  const ctx = await requirePartner();
  if (ctx.liveRefused) return { refused: NO_LIVE_ACCESS };
  const refused = refusalOf(ctx.user.role, PORTAL_ACTIONS[action], ctx.mode);
  return refused ? { refused } : ctx;
}

export async function requireOperator(): Promise<PortalContext> {
  const ctx = await requireUser();
  if (ctx.user.role !== "operator") redirect("/dashboard");
  return ctx;
}
