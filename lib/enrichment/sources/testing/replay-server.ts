// A local HTTP server that replays register answers for tests: recorded bodies, HTML error pages,
// HTTP 200 errors, malformed bodies and hangs, counting the requests it receives.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Reply =
  | { status?: number; body: string; contentType?: string; delayMs?: number }
  | { hang: true };

export interface ReplayServer {
  url: string;
  /** Answer requests whose path+query matches `match` (first match wins; later `on` calls take precedence). */
  on(match: RegExp, reply: Reply | ((url: URL) => Reply)): void;
  requests: URL[];
  inFlight: () => number;
  /** Most requests in flight at once since the server started or since `resetPeak()`. */
  maxInFlight: () => number;
  resetPeak(): void;
  close(): Promise<void>;
}

export async function startReplayServer(): Promise<ReplayServer> {
  const routes: [RegExp, Reply | ((url: URL) => Reply)][] = [];
  const requests: URL[] = [];
  const sockets = new Set<import("node:net").Socket>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, "http://replay");
    requests.push(url);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    const route = routes.find(([re]) => re.test(decodeURIComponent(url.pathname + url.search)));
    const reply = route ? (typeof route[1] === "function" ? route[1](url) : route[1]) : { status: 404, body: "no route" };
    if ("hang" in reply) return;
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    res.writeHead(reply.status ?? 200, { "Content-Type": reply.contentType ?? "application/json; charset=utf-8" }).end(reply.body);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    on: (match, reply) => void routes.unshift([match, reply]),
    requests,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    resetPeak: () => void (maxInFlight = inFlight),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The WAF page Catastro serves to blocked clients (HTTP 200 or 400, HTML). */
export const WAF_PAGE = "<html><head><title>Error</title></head><body><h1>No se puede procesar su petición</h1></body></html>";
