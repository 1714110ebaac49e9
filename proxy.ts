// Refuses a server action posted from another site with 403 (Next.js would refuse it with a 500),
// and sends visitors without a session cookie to sign-in, remembering where they were going. The
// latter is only a convenience: every page and action checks the session itself (server/session.ts).
import { NextResponse, type NextRequest } from "next/server";
import { isForeignServerAction } from "@/lib/http/origin";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];
/** The pages only a signed-in visitor is sent on to. */
const SIGNED_IN = /^\/(dashboard|keys|webhooks|team|account|properties(\/.*)?|admin(\/.*)?)$/;

export function proxy(request: NextRequest) {
  if (isForeignServerAction(request.method, request.headers))
    return new NextResponse("A server action must come from this site's own pages.", {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  if (!SIGNED_IN.test(request.nextUrl.pathname)) return NextResponse.next();
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
  // Every page (any may be posted a server action), never the API or Next.js's own files.
  matcher: ["/((?!api/|_next/).*)"],
};
