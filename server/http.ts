// The product's HTTP server: the partner API's own listener for every request under its base path
// (the same handlers and operations table as the lean server and the Next.js catch-all route, with
// none of Next's request handling in the way: a create costs what it costs on the lean server), and
// Next.js (portal, docs, operators' endpoints) for the rest. Doubled slashes under the API path go to
// the API too (Next would answer them with a 308 and no X-Request-Id), as does what Next cannot
// route: a TRACE, an `OPTIONS *`, an absolute-form target (`GET http://host/path`). A page's path
// that is not valid percent-encoding gets a plain 400 (`next start` answers it with a 500).
import type http from "node:http";
import type { Listener } from "@/lib/http/counting-server";
import { BASE_PATH } from "@/lib/partner-api";
import { FRONT_DOOR } from "@/lib/auth/throttle";
import { withRequestSignal } from "./request-signal";

// The methods Next's route handlers and pages can answer.
const ROUTED = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const plain = (res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", ...headers }).end(`${text}\n`);
};

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether a path names something of the API, however many slashes separate its segments. */
function underApi(path: string): boolean {
  const squashed = path.replace(/\/{2,}/g, "/");
  return squashed === BASE_PATH || squashed.startsWith(`${BASE_PATH}/`);
}

/** The path and query of a request target; null for `*` and for what names no path. */
function pathOf(target: string): { path: string; search: string } | null {
  // Origin-form as sent: a URL parser would take `//api/…` for a host.
  if (target.startsWith("/")) {
    const query = target.indexOf("?");
    return query < 0 ? { path: target, search: "" } : { path: target.slice(0, query), search: target.slice(query) };
  }
  try {
    const url = new URL(target);
    return { path: url.pathname, search: url.search };
  } catch {
    return null;
  }
}

/** `::ffff:127.0.0.1` as people write it. */
const readable = (address: string | undefined) => address?.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1") ?? "";

/**
 * The listener: `token` (the process's own) vouches for the socket's address it hands Next.js
 * (FRONT_DOOR), so a page can show where a sign-in came from without a proxy in front.
 */
export function frontDoor(next: Listener, api: Listener, token: string): Listener {
  return (req, res) => {
    const target = req.url ?? "/";
    const at = pathOf(target);
    // `*` names no resource; the API says so (404 problem+json).
    if (at === null || underApi(at.path)) return api(req, res);
    if (!ROUTED.has(req.method ?? "GET")) return plain(res, 405, "Method not allowed.", { Allow: "GET, HEAD, POST" });
    if (!decodable(at.path)) return plain(res, 400, "Bad request: the path is not valid percent-encoding.");
    // An absolute-form target for a page: served as its path, the host it names is not ours to follow.
    if (!target.startsWith("/")) req.url = at.path + at.search;
    req.headers[FRONT_DOOR.address] = readable(req.socket.remoteAddress);
    req.headers[FRONT_DOOR.token] = token;
    return withRequestSignal(res, () => next(req, res));
  };
}
