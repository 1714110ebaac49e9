// Runs before Next.js routes a request:
// - the partner API answers what Next's router cannot (a path that is not valid percent-encoding,
//   which Next fails to decode with a plain 500; a method Next has no route export for, such as
//   TRACE) through its own dispatch, as problem+json with X-Request-Id, like the lean server;
// - any other such path is a 400, not a 500;
// - visitors without a session cookie are sent to sign-in, remembering where they were going
//   (only a convenience: every page and action checks the session itself, server/session.ts).
import { NextResponse, type NextRequest } from "next/server";
import { handlePartnerApi } from "@/server/partner-api";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];
const API = "/api/v1/partner-api";
const GUARDED = /^\/(dashboard|keys|webhooks|team|account)$|^\/(properties|admin)(\/|$)/;
// What Next's route handlers can export; anything else never reaches the API's route file.
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const valid = decodable(pathname);
  if (pathname === API || pathname.startsWith(`${API}/`)) {
    return valid && ROUTED_METHODS.has(request.method) ? NextResponse.next() : handlePartnerApi(request);
  }
  if (!valid) return new NextResponse("Bad request: the path is not valid percent-encoding.\n", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (!GUARDED.test(pathname)) return NextResponse.next();
  // Large sessions are split into numbered chunks (name.0, name.1, …).
  const signedIn = request.cookies.getAll().some((c) => SESSION_COOKIES.some((name) => c.name === name || c.name.startsWith(`${name}.`)));
  if (signedIn) return NextResponse.next();
  const url = new URL("/sign-in", request.url);
  url.searchParams.set("next", pathname + request.nextUrl.search);
  return NextResponse.redirect(url);
}

export const config = {
  // Every path but Next's own static files.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
