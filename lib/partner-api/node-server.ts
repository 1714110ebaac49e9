// The partner API on a plain node:http server (no Next.js): the adapter between node's
// request/response and the handlers' Request/Response; routing is the API's own dispatch.
import http from "node:http";
import type { PartnerApi } from "./api";
import { problemAnswer, toDomainError } from "./errors";
import { answerHeader, keepWholeBody, MAX_BODY_BYTES, requestIdOf, type Answer } from "./request";

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
    // The rest stays unread until the answer is ready (finishBody drops it or closes the
    // connection): resumed now, a large body would be drained while the request is still served.
    cancel: () => stop(() => req.pause()),
  });
}

/**
 * A body declared by its Content-Length within the API's JSON cap (a create's, an endpoint's), read whole before the
 * Request is made: the bytes go in as they are, where streaming them through bodyOf's web stream
 * chunk by chunk cost a create more CPU than its JSON parse (and the Request gets no stream: the
 * bytes are kept beside it, keepWholeBody). A body that does not arrive whole (the client
 * went) is a stream that fails, as bodyOf's would; larger or chunked bodies (a portfolio's file)
 * still stream.
 */
function smallBody(req: http.IncomingMessage): Promise<Uint8Array | ReadableStream<Uint8Array>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const failed = () =>
      resolve(new ReadableStream({ start: (controller) => controller.error(new Error("request body aborted")) }));
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on("error", failed);
    req.once("close", () => !req.complete && failed());
  });
}

const declaredSmall = (req: http.IncomingMessage) => {
  const length = req.headers["content-length"];
  return length !== undefined && !req.headers["transfer-encoding"] && Number(length) <= MAX_BODY_BYTES;
};

/**
 * What is left of a body once the answer is ready. Closing the connection on a client that is
 * still sending makes its kernel drop our answer (a reset), so a body up to the cap is read to its
 * end and dropped, keeping the connection; one declared or found larger closes it.
 */
function finishBody(req: http.IncomingMessage, answer: Answer): void {
  if (req.complete) return;
  if (Number(req.headers["content-length"]) > MAX_BODY_BYTES) {
    answer.headers.Connection = "close";
    return;
  }
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > MAX_BODY_BYTES) req.socket.destroy();
  });
  req.resume();
}

/**
 * A Request whose signal is the one given, as it is. Given to undici's Request, a signal is followed
 * by one of its own (a WeakRef, a finalizer and listener bookkeeping): that cost a create more CPU
 * than the rest of its Request. The handlers that watch it (listen, a batch's file) see the same aborts.
 */
class NodeRequest extends Request {
  readonly #signal: AbortSignal;
  constructor(url: URL, init: RequestInit, signal: AbortSignal) {
    super(url, init);
    this.#signal = signal;
  }
  override get signal(): AbortSignal {
    return this.#signal;
  }
}

/** Handlers for exact paths outside the API (GET and HEAD), such as the operators' `/api/health`, `/api/ready` and `/metrics`. */
export type ExtraRoutes = Record<string, (req: Request) => Promise<Response>>;

export function createPartnerApiServer(api: PartnerApi, routes: ExtraRoutes = {}): http.Server {
  return http.createServer(partnerApiListener(api, routes));
}

/** An extra route's Response as an answer. */
const answerOf = (response: Response): Answer => ({
  status: response.status,
  headers: Object.fromEntries(response.headers),
  stream: response.body,
});

/** The adapter alone, for a server that also serves other things (server/http.ts). */
export function partnerApiListener(api: PartnerApi, routes: ExtraRoutes = {}): http.RequestListener {
  return async (req, res) => {
    const url = urlOf(req.url ?? "/");
    const method = req.method ?? "GET";
    let answer: Answer;
    // Aborted when the client goes before the answer is complete (a listen stream stops then).
    const gone = new AbortController();
    res.once("close", () => !res.writableFinished && gone.abort());
    // fetch refuses TRACE: the Request says GET, and dispatch is told the real method.
    const fetchMethod = method === "TRACE" ? "GET" : method;
    try {
      const body =
        fetchMethod === "GET" || fetchMethod === "HEAD"
          ? undefined
          : declaredSmall(req)
            ? await smallBody(req)
            : bodyOf(req);
      // A body read whole is kept beside the Request (readBody and bodyChunks read it), not made its stream.
      const whole = body instanceof Uint8Array ? body : null;
      const init = {
        method: fetchMethod,
        headers: req.headers as Record<string, string>,
        body: body instanceof ReadableStream ? body : null,
        duplex: "half", // Node's fetch needs it for a streamed request body (not in RequestInit's type)
      };
      const request = new NodeRequest(url, init, gone.signal);
      if (whole) keepWholeBody(request, whole);
      const extra = method === "GET" || method === "HEAD" ? routes[url.pathname] : undefined;
      answer = extra ? answerOf(await extra(request)) : await api.answer(request, method);
    } catch (error) {
      // Whatever a client sends gets an answer; a rejection here would leave the socket hanging.
      const requestId = requestIdOf(new Request(url));
      answer = problemAnswer(toDomainError(error, requestId, api.logger), requestId, { "X-Request-Id": requestId });
    }
    finishBody(req, answer);
    res.writeHead(answer.status, answer.headers);
    if (answer.json !== undefined) res.end(answer.json);
    else if (!answer.stream) res.end();
    else if (STREAMED.test(answerHeader(answer, "content-type") ?? "")) await stream(answer.stream, res);
    else res.end(Buffer.from(await new Response(answer.stream).arrayBuffer()));
  };
}

/** Bodies written as they are produced, never held whole: events (listen) and batch results. */
const STREAMED = /^(text\/event-stream|text\/csv|application\/x-ndjson|application\/vnd\.openxmlformats)/;

/** A long-lived or large body written as it comes; cancelled when the client goes. */
async function stream(body: ReadableStream<Uint8Array>, res: http.ServerResponse): Promise<void> {
  const reader = body.getReader();
  res.once("close", () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
    }
  } finally {
    res.end();
  }
}
