// A local HTTP server (127.0.0.1, a free port) that replays register answers for tests: recorded
// bodies, HTML error pages, HTTP 200 error bodies, malformed bodies, slow answers, hangs and cut
// connections, and counts the requests it receives.
import http from "node:http";
import type { Socket } from "node:net";

export type Reply =
  /** A body with a status (default 200) and content type (default JSON), optionally after a delay. */
  | { status?: number; body: string; contentType?: string; delayMs?: number; headers?: Record<string, string> }
  /** Never answer: the client's timeout or abort has to end it. */
  | { hang: true }
  /** Drop the connection without an answer. */
  | { destroy: true };

export interface ReplayServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /**
   * Answer requests whose decoded path and query match `match`. Later routes take precedence, so a
   * test can override a general route with a specific one.
   */
  on(match: RegExp, reply: Reply | ((url: URL) => Reply)): void;
  /** Every request received, in order. */
  requests: URL[];
  /** When each of them arrived (ms since the epoch, this process's clock), in the same order. */
  arrivals: number[];
  /** How many requests matched `match` (on the decoded path and query). */
  count(match: RegExp): number;
  inFlight(): number;
  /** Most requests in flight at once since the start or the last `resetPeak()`. */
  maxInFlight(): number;
  resetPeak(): void;
  close(): Promise<void>;
}

const decoded = (url: URL) => {
  const raw = url.pathname + url.search;
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
};

export async function startReplayServer(): Promise<ReplayServer> {
  const routes: [RegExp, Reply | ((url: URL) => Reply)][] = [];
  const requests: URL[] = [];
  const arrivals: number[] = [];
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://replay");
    requests.push(url);
    arrivals.push(Date.now());
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    const route = routes.find(([re]) => re.test(decoded(url)));
    const reply: Reply = route
      ? typeof route[1] === "function"
        ? route[1](url)
        : route[1]
      : { status: 404, body: `no route for ${decoded(url)}`, contentType: "text/plain" };
    if ("hang" in reply) return;
    if ("destroy" in reply) return void req.socket.destroy();
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return; // the client gave up during the delay
    res
      .writeHead(reply.status ?? 200, {
        "Content-Type": reply.contentType ?? "application/json; charset=utf-8",
        ...reply.headers,
      })
      .end(reply.body);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the replay server is not listening on TCP");
  return {
    url: `http://127.0.0.1:${address.port}`,
    on: (match, reply) => void routes.unshift([match, reply]),
    requests,
    arrivals,
    count: (match) => requests.filter((u) => match.test(decoded(u))).length,
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

/**
 * The kind of page Catastro's WAF serves to blocked clients (HTML, with HTTP 200 or 400; the
 * message is the one peers report, "No se puede procesar su petición"). Constructed, not captured.
 */
export const WAF_PAGE =
  '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Error</title></head><body><h1>No se puede procesar su petición</h1><p>Sistema no disponible. Inténtelo más tarde.</p></body></html>';
