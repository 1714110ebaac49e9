// The operators' endpoints alone on a node:http server, for processes without the API (a worker):
// GET and HEAD on the given paths, 404 elsewhere. Requests carry no body.
import http from "node:http";

export function createOpsServer(routes: Record<string, (req: Request) => Promise<Response>>): http.Server {
  return http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const handler = req.method === "GET" || req.method === "HEAD" ? routes[url.pathname] : undefined;
    const response = handler
      ? await handler(new Request(url, { headers: req.headers as Record<string, string> })).catch(
          () => new Response("Internal error\n", { status: 500 }),
        )
      : new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(req.method === "HEAD" ? undefined : Buffer.from(await response.arrayBuffer()));
  });
}
