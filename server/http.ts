// The product's HTTP server: Next.js (portal, docs and the API's catch-all route) behind a front
// door for the requests Next cannot route. `next start` answers a path that is not valid
// percent-encoding, a TRACE, an `OPTIONS *` or an absolute-form target (`GET http://host/path`)
// with a plain-text 500 before any of our code runs, and redirects a trailing slash; here the
// partner API's own listener answers them under its base path, exactly as on the lean server
// (problem+json, X-Request-Id), and anything else gets a plain 400 or 405 or is served by its path.
import http from "node:http";
import { BASE_PATH } from "@/lib/partner-api/operations";

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

export function frontDoor(next: http.RequestListener, api: http.RequestListener): http.RequestListener {
  return (req, res) => {
    const target = req.url ?? "/";
    const method = req.method ?? "GET";
    const underApi = (p: string) => p === BASE_PATH || p.startsWith(`${BASE_PATH}/`);
    if (target.startsWith("/") && ROUTED.has(method)) {
      const pathname = target.split("?")[0]!;
      if (decodable(pathname)) {
        // The API treats a trailing slash as the same path; Next would redirect it.
        return pathname.endsWith("/") && underApi(pathname) ? api(req, res) : next(req, res);
      }
      return underApi(pathname) ? api(req, res) : plain(res, 400, "Bad request: the path is not valid percent-encoding.");
    }
    let path: string | null = null;
    try {
      path = target === "*" ? null : new URL(target, "http://localhost").pathname;
    } catch {
      path = null;
    }
    // `*` names no resource; under the API the API says so (404 problem+json).
    if (path === null || underApi(path)) return api(req, res);
    if (!ROUTED.has(method)) return plain(res, 405, "Method not allowed.", { Allow: "GET, HEAD, POST" });
    // An absolute-form target for a page: served as its path, the host it names is not ours to follow.
    req.url = path + (new URL(target).search ?? "");
    return next(req, res);
  };
}
