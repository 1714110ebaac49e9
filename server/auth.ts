// next-auth (Auth.js v5): email + password against our users table, JWT sessions carrying the
// user's id, role, partner, session version and session row. Every page and action re-checks the
// session against the database (./session.ts): a sign-out or an ended session ends that session's
// every copy; a password or role change, a removal or a disable ends all the user's at once.
import { cookies } from "next/headers";
import NextAuth, { AuthError, CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { codeOf, DomainError, type Role } from "@/lib/domain";
import { checkCredentials } from "@/lib/auth/accounts";
import { BUSY } from "@/lib/auth/password";
import {
  cookieValue,
  DEVICE_COOKIE,
  DEVICE_COOKIE_MAX_AGE_SECONDS,
  knownDevice,
  newDeviceCookie,
} from "@/lib/auth/device";
import { clientAddressOf } from "./address";
import { findUserByEmail, normalizeEmail } from "@/lib/auth/users";
import { deviceOf, SESSION_MAX_AGE_SECONDS, startSession } from "@/lib/auth/sessions";
import { audited, userActor } from "@/lib/audit";
import { errorFields } from "@/lib/observability/logger";
import { getApp } from "./app";

/** A refusal the sign-in form explains (`code` reaches the action's AuthError). */
class Refused extends CredentialsSignin {
  constructor(override readonly code: string) {
    super();
  }
}

declare module "next-auth" {
  interface User {
    role?: Role;
    partnerId?: string | null;
    sessionVersion?: number;
    sessionId?: string;
  }
  interface Session {
    user: {
      id: string;
      email: string;
      name?: string | null;
      role: Role;
      partnerId: string | null;
      sessionVersion: number;
      /** The session's row (lib/auth/sessions.ts). */
      sessionId: string;
    };
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/sign-in" },
  logger: {
    // A wrong password is an expected outcome (recorded for throttling), not a server error.
    error(error) {
      if ("type" in error && error.type === "CredentialsSignin") return;
      void getApp().then((app) => app.logger.error(errorFields(error), "sign-in failed"));
    },
  },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        const app = await getApp();
        // Trusted proxies' entry, else the socket's as the front door saw it: limits per address hold without a proxy.
        const address = clientAddressOf(request.headers, app.config);
        const email = normalizeEmail(String(credentials?.email ?? ""));
        // Auth.js signs with AUTH_SECRET, which scripts/start.mjs sets when the environment does not.
        const secret = process.env.AUTH_SECRET ?? "";
        const device = knownDevice(secret, cookieValue(request.headers.get("cookie"), DEVICE_COOKIE), email);
        const result = await checkCredentials(app, email, String(credentials?.password ?? ""), {
          address,
          device,
        }).catch((error: unknown) => {
          if (error instanceof DomainError && error.code === "rate_limited") throw new Refused("busy");
          throw error;
        });
        if (!result.ok) {
          // A password checked and refused is recorded (a throttled attempt checked nothing: recording
          // it would let anyone fill the history). The account's owners see it; an unknown email is nobody's.
          if (result.reason !== "throttled") {
            const account = await findUserByEmail(app.db, email);
            await audited(app, { userId: null, label: email.slice(0, 320) || "(no email)", address }, async () => ({
              result: null,
              entry: {
                partnerId: account?.partnerId ?? null,
                action: "sign_in.failed",
                target: email.slice(0, 320) || null,
                detail: { reason: result.reason },
              },
            }));
          }
          if (result.reason === "throttled") throw new Refused(`throttled:${Math.ceil(result.retryAfterMs / 1000)}`);
          if (result.reason === "disabled") throw new Refused("disabled");
          return null;
        }
        const { user } = result;
        // This browser is now a known device of the account: its sign-ins skip the slowdown others caused.
        (await cookies()).set(DEVICE_COOKIE, newDeviceCookie(secret, user.email), {
          httpOnly: true,
          sameSite: "lax",
          secure: new URL(request.url).protocol === "https:",
          path: "/",
          maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
        });
        const userAgent = request.headers.get("user-agent");
        // The session and its record commit together.
        const sessionId = await audited(app, userActor(user, address), async (tx) => ({
          result: await startSession(tx, user.id, { userAgent, address }),
          entry: {
            partnerId: user.partnerId,
            action: "sign_in.succeeded",
            target: null,
            detail: { device: deviceOf(userAgent) },
          },
        }));
        return {
          id: user.id,
          email: user.email,
          name: user.name,
          role: user.role,
          partnerId: user.partnerId,
          sessionVersion: user.sessionVersion,
          sessionId,
        };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user)
        Object.assign(token, {
          uid: user.id,
          role: user.role,
          partnerId: user.partnerId ?? null,
          sv: user.sessionVersion,
          sid: user.sessionId,
        });
      return token;
    },
    session({ session, token }) {
      Object.assign(session.user, {
        id: token.uid,
        role: token.role,
        partnerId: token.partnerId ?? null,
        sessionVersion: token.sv,
        sessionId: token.sid,
      });
      return session;
    },
  },
});

/** A refused sign-in, in the words the form shows. */
function refusal(code: string | undefined): string {
  if (code?.startsWith("throttled:"))
    return `Too many failed attempts. Wait ${code.slice("throttled:".length)} seconds and try again.`;
  if (code === "busy") return BUSY;
  if (code === "disabled") return "This account is disabled. Ask your organisation's owner or Finca's support.";
  return "Wrong email or password.";
}

/** Signs in and goes to `redirectTo` (the redirect is thrown); the refusal when the sign-in is refused. */
export async function signInWith(
  email: string,
  password: string,
  redirectTo: string,
): Promise<{ error: string } | undefined> {
  try {
    await signIn("credentials", { email, password, redirectTo });
  } catch (error) {
    if (error instanceof AuthError) return { error: refusal(codeOf(error)) };
    throw error; // the redirect after a successful sign-in
  }
  // signIn redirects on success: it never returns.
  return undefined;
}
