// A node:http server whose request handlers in flight are counted, so that a stop can wait for them:
// a handler whose client hung up runs on after its connection closed, and closing the database under
// it would fail its work (and lose its request-log row).
import http from "node:http";

/** A request handler; one that returns a promise is in flight until it settles. */
export type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

const settledOf = new WeakMap<http.Server, () => Promise<void>>();

export function countingServer(listener: Listener): http.Server {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const settle = () => {
    inFlight -= 1;
    if (inFlight === 0) for (const resolve of waiting.splice(0)) resolve();
  };
  const server = http.createServer((req, res) => {
    inFlight += 1;
    let result: unknown;
    try {
      result = listener(req, res);
    } catch (error) {
      settle();
      throw error;
    }
    // A rejection stays unhandled, as it was without the count (node reports it).
    if (result instanceof Promise)
      result.then(settle, (error: unknown) => {
        settle();
        throw error;
      });
    else settle();
  });
  settledOf.set(server, () => (inFlight === 0 ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve))));
  return server;
}

/** Resolves once no handler of `server` is in flight (at once for a server countingServer did not make). */
export const handlersSettled = (server: http.Server): Promise<void> => settledOf.get(server)?.() ?? Promise.resolve();
