// Local HTTP servers standing in for partners' webhook receivers (tests and benchmarks): one
// listener that reads whole bodies, tracks its sockets and can be taken down and brought back on
// the same port; and a scripted receiver on top that records every request.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface LocalServer {
  port: number;
  /** Stops listening and drops open connections: senders see ECONNREFUSED until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 calling `handle` with each request's whole body. */
export async function listen(
  handle: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void,
  port = 0,
): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handle(req, Buffer.concat(chunks), res));
  });
  server.keepAliveTimeout = 5_000;
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const start = (at: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(at, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await start(port);
  const bound = (server.address() as AddressInfo).port;
  const down = () => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  };
  return { port: bound, down, up: () => start(bound), close: down };
}

export type Behaviour =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { hangMs: number }
  | { destroy: true };

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  /** The sender's port: requests on one kept-alive connection share it. */
  remotePort: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Behaviours for the next requests, in order; afterwards every request gets 200. */
  script(...behaviours: Behaviour[]): void;
  close(): Promise<void>;
}

/** A receiver that records every request (raw body and headers) and answers from a script, then 200. */
export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let queue: Behaviour[] = [];
  const server = await listen((req, body, res) => {
    received.push({
      headers: req.headers,
      body: body.toString("utf8"),
      at: Date.now(),
      remotePort: req.socket.remotePort!,
    });
    const behaviour = queue.shift() ?? { status: 200, body: "ok" };
    if ("destroy" in behaviour) return void req.socket.destroy();
    if ("hangMs" in behaviour) return void setTimeout(() => res.writeHead(200).end("late"), behaviour.hangMs);
    res.writeHead(behaviour.status, behaviour.headers).end(behaviour.body ?? "");
  }, port);
  return {
    url: `http://127.0.0.1:${server.port}/hooks`,
    received,
    script: (...b) => void (queue = b),
    close: server.close,
  };
}
