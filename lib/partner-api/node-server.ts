// The partner API on a plain node:http server (no Next.js): the routing table and the adapter
// between node's request/response and the handlers' Request/Response.
import http from "node:http";
import { methodNotAllowed, notFound, openApi, type PartnerApi } from ".";
import { problemResponse, toApiError } from "./errors";
import { requestIdOf } from "./request";
import type { Handler } from "./route";

const BASE = "/api/v1/partner-api";

function partnerApiRoutes(api: PartnerApi): [RegExp, Record<string, Handler>][] {
  return [
    [/^\/properties\/?$/, { GET: api.listProperties, POST: api.createProperty }],
    [/^\/properties\/[^/]+\/?$/, { GET: api.getProperty }],
    [/^\/webhook-endpoints\/?$/, { GET: api.listWebhookEndpoints, POST: api.createWebhookEndpoint }],
    [/^\/webhook-endpoints\/[^/]+\/?$/, { DELETE: api.deleteWebhookEndpoint }],
    [/^\/openapi\.json$/, { GET: openApi }],
  ];
}

/** The request's URL on a fixed origin: routing needs only the path, and a Host header can be anything. */
function urlOf(target: string): URL {
  try {
    return new URL(target.startsWith("/") ? `http://localhost${target}` : target); // origin-form, or absolute-form
  } catch {
    return new URL("http://localhost/"); // "*" and the like: an unknown path
  }
}

/**
 * The request body as a web stream. Node 20's Readable.toWeb throws an uncaught error when data
 * is still flowing after the reader cancelled (a body over the cap), so this one drops it instead.
 */
function bodyOf(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  const stop = (end: () => void) => {
    if (open) end();
    open = false;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk)); // a copy: the chunk may be a view of a pooled buffer
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once("end", () => stop(() => controller.close()));
      req.once("error", (error) => stop(() => controller.error(error)));
      req.once("close", () => stop(() => controller.error(new Error("request body aborted"))));
    },
    pull: () => void req.resume(),
    // The rest is read and dropped; the answer then closes the connection (see below).
    cancel: () => stop(() => req.resume()),
  });
}

export function createPartnerApiServer(api: PartnerApi): http.Server {
  const routes = partnerApiRoutes(api).map(([pattern, methods]) => ({ pattern, methods, other: methodNotAllowed(Object.keys(methods)) }));
  const route = (method: string, pathname: string): Handler => {
    if (!pathname.startsWith(BASE)) return notFound;
    const rest = pathname.slice(BASE.length);
    const path = routes.find(({ pattern }) => pattern.test(rest));
    if (!path) return notFound;
    return path.methods[method === "HEAD" ? "GET" : method] ?? path.other; // node drops the body of a HEAD answer
  };
  return http.createServer(async (req, res) => {
    const url = urlOf(req.url ?? "/");
    const method = req.method ?? "GET";
    let response: Response;
    try {
      // fetch refuses TRACE; no route has it, so the 404/405 handlers see it as a GET.
      const fetchMethod = method === "TRACE" ? "GET" : method;
      const request = new Request(url, {
        method: fetchMethod,
        headers: req.headers as Record<string, string>,
        body: fetchMethod !== "GET" && fetchMethod !== "HEAD" ? bodyOf(req) : undefined,
        // @ts-expect-error Node's fetch needs duplex for streamed request bodies
        duplex: "half",
      });
      response = await route(method, url.pathname)(request);
    } catch (error) {
      // Whatever a client sends gets an answer; a rejection here would leave the socket hanging.
      const requestId = requestIdOf(new Request(url));
      response = problemResponse(toApiError(error, requestId), requestId);
      response.headers.set("X-Request-Id", requestId);
    }
    // A body left unread (over the cap) is not drained to keep the connection: it is closed.
    if (!req.complete) response.headers.set("Connection", "close");
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
}
