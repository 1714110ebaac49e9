// Sends visitors without a session cookie to sign-in, remembering where they were going. Only a
// convenience: every page and action checks the session itself (lib/auth/session.ts).
import { NextResponse, type NextRequest } from "next/server";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];

export function proxy(request: NextRequest) {
  // Large sessions are split into numbered chunks (name.0, name.1, …).
  const signedIn = request.cookies
    .getAll()
    .some((c) => SESSION_COOKIES.some((name) => c.name === name || c.name.startsWith(`${name}.`)));
  if (signedIn) return NextResponse.next();
  const url = new URL("/sign-in", request.url);
  url.searchParams.set("next", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(url);
}

export const config = {
  matcher: ["/dashboard", "/properties/:path*", "/keys", "/webhooks", "/team", "/account", "/admin/:path*"],
};
