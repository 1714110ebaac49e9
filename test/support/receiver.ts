// A real local webhook receiver: records every request (raw body and headers) and answers from a
// script of behaviours, then 200.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Behaviour = { status: number; body?: string; headers?: Record<string, string> } | { hangMs: number } | { destroy: true };

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Behaviours for the next requests, in order; afterwards every request gets 200. */
  script(...behaviours: Behaviour[]): void;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let queue: Behaviour[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const behaviour = queue.shift() ?? { status: 200, body: "ok" };
      if ("destroy" in behaviour) return req.socket.destroy();
      if ("hangMs" in behaviour) return void setTimeout(() => res.writeHead(200).end("late"), behaviour.hangMs);
      res.writeHead(behaviour.status, behaviour.headers).end(behaviour.body ?? "");
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    script: (...b) => void (queue = b),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
