// next-auth (Auth.js v5): email + password against our users table, JWT sessions carrying the
// user's id, role and partner. Sessions are re-checked against the database on every page.
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import type { Role } from "@/lib/domain";
import { checkCredentials } from "@/lib/auth/accounts";
import { getApp } from "./app";

class Throttled extends CredentialsSignin {
  code = "throttled";
}

declare module "next-auth" {
  interface User {
    role?: Role;
    partnerId?: string | null;
  }
  interface Session {
    user: { id: string; email: string; name?: string | null; role: Role; partnerId: string | null };
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  session: { strategy: "jwt", maxAge: 8 * 3600 },
  pages: { signIn: "/sign-in" },
  logger: {
    // A wrong password is an expected outcome (recorded for throttling), not a server error.
    error(error) {
      if ((error as Error & { type?: string }).type === "CredentialsSignin") return;
      console.error(error);
    },
  },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        const email = String(credentials?.email ?? "");
        const password = String(credentials?.password ?? "");
        const address = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || null;
        const result = await checkCredentials((await getApp()).db, email, password, address);
        if (!result.ok) {
          if (result.reason === "throttled") throw new Throttled();
          return null;
        }
        const { user } = result;
        return { id: user.id, email: user.email, name: user.name, role: user.role, partnerId: user.partnerId };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) Object.assign(token, { uid: user.id, role: user.role, partnerId: user.partnerId ?? null });
      return token;
    },
    session({ session, token }) {
      Object.assign(session.user, { id: token.uid, role: token.role, partnerId: token.partnerId ?? null });
      return session;
    },
  },
});
