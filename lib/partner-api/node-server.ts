// The partner API on a plain node:http server (no Next.js): the adapter between node's
// request/response and the handlers' Request/Response; routing is the API's own dispatch.
import type http from "node:http";
import { countingServer, type Listener } from "@/lib/http/counting-server";
import type { PartnerApi } from "./api";
import { problemAnswer, toDomainError } from "./errors";
import { answerHeader, keepWholeBody, MAX_BODY_BYTES, requestIdOf, type Answer } from "./request";

/** The request's URL on a fixed origin: routing needs only the path, and a Host header can be anything. */
function urlOf(target: string): URL {
  try {
    const url = new URL(target.startsWith("/") ? `http://localhost${target}` : target); // origin-form, or absolute-form
    // An absolute-form target's userinfo is no part of the request (and a Request refuses a URL with one).
    url.username = "";
    url.password = "";
    return url;
  } catch {
    return new URL("http://localhost/"); // "*" and the like: an unknown path
  }
}

/** What the adapter has seen of a request's body: its bytes read, and whether the rest is being dropped. */
interface BodySeen {
  bytes: number;
  dropping: boolean;
}

/**
 * The request body as a web stream. Node 20's Readable.toWeb throws an uncaught error when data
 * is still flowing after the reader cancelled (a body over the cap), so this one drops it instead.
 */
function bodyOf(req: http.IncomingMessage, seen: BodySeen): ReadableStream<Uint8Array> {
  let open = true;
  const stop = (end: () => void) => {
    if (open) end();
    open = false;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (!open || seen.dropping) return;
        seen.bytes += chunk.length;
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
 * What is left of a body once the answer is ready (the stream read `seen.bytes` of it), read to its end and
 * dropped before the answer is written: a socket closed while its client is still sending (node
 * closes it after the answer when the request said `Connection: close`) is reset, and the client's
 * kernel drops our answer with it. A body declared or found larger than the cap is not waited for:
 * the answer closes the connection.
 */
function finishBody(req: http.IncomingMessage, answer: Answer, seen: BodySeen): Promise<void> | undefined {
  if (req.complete || req.destroyed) return;
  const tooLarge = () => void (answer.headers.Connection = "close");
  if (seen.bytes > MAX_BODY_BYTES || Number(req.headers["content-length"]) > MAX_BODY_BYTES) return tooLarge();
  // The body's stream, if any, no longer takes (or pauses for) what arrives.
  seen.dropping = true;
  return new Promise((resolve) => {
    let dropped = seen.bytes;
    req.on("data", (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped <= MAX_BODY_BYTES) return;
      req.pause();
      tooLarge();
      resolve();
    });
    req.once("end", resolve).once("close", resolve).once("error", resolve);
    req.resume();
  });
}

/**
 * A request's headers read from node's, which its parser has checked and lower-cased already: undici's
 * Headers check and copy each one again, and keep them sorted, which cost a create a tenth of its
 * adapter's CPU. Read-only, as the handlers use them; iterated in name order, as Headers are.
 */
class NodeHeaders extends Headers {
  readonly #sent: http.IncomingHttpHeaders;
  constructor(sent: http.IncomingHttpHeaders) {
    super();
    this.#sent = sent;
  }
  override get(name: string): string | null {
    const key = name.toLowerCase();
    // A repeated header node keeps as a list is one value, as undici makes of it.
    return Object.hasOwn(this.#sent, key) ? String(this.#sent[key]) : null;
  }
  override has(name: string): boolean {
    return Object.hasOwn(this.#sent, name.toLowerCase());
  }
  override *entries(): HeadersIterator<[string, string]> {
    for (const name of Object.keys(this.#sent).sort()) yield [name, String(this.#sent[name])];
  }
  override [Symbol.iterator]() {
    return this.entries();
  }
  override *keys(): HeadersIterator<string> {
    for (const [name] of this.entries()) yield name;
  }
  override *values(): HeadersIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }
  override forEach(each: (value: string, name: string, parent: Headers) => void, self?: unknown): void {
    for (const [name, value] of this.entries()) each.call(self, value, name, this);
  }
  override getSetCookie(): string[] {
    return [];
  }
  override append(): never {
    throw new TypeError("a request's headers are read-only");
  }
  override set(): never {
    return this.append();
  }
  override delete(): never {
    return this.append();
  }
}

/**
 * Aborted when the client goes before its answer is complete (a listen stream stops then). Made when a
 * handler first asks (listen, a batch's file): an AbortController and a listener a request cost a
 * create a percent of its CPU, and no other handler looks.
 */
function goneSignal(res: http.ServerResponse): AbortSignal {
  const gone = new AbortController();
  const went = () => !res.writableFinished && gone.abort();
  if (res.closed) went();
  else res.once("close", went);
  return gone.signal;
}

/**
 * A Request whose signal is its response's `goneSignal`, as it is, and whose headers are node's
 * (NodeHeaders). Given to undici's Request, a signal is followed by one of its own (a WeakRef, a
 * finalizer and listener bookkeeping): that cost a create more CPU than the rest of its Request.
 */
class NodeRequest extends Request {
  readonly #res: http.ServerResponse;
  #signal: AbortSignal | undefined;
  readonly #headers: NodeHeaders;
  constructor(url: URL, init: RequestInit, sent: http.IncomingHttpHeaders, res: http.ServerResponse) {
    super(url, init);
    this.#res = res;
    this.#headers = new NodeHeaders(sent);
  }
  override get signal(): AbortSignal {
    this.#signal ??= goneSignal(this.#res);
    return this.#signal;
  }
  override get headers(): Headers {
    return this.#headers;
  }
}

/**
 * Handlers for exact paths outside the API (GET and HEAD), such as the operators' `/api/health`, `/api/ready`
 * and `/metrics`.
 */
export type ExtraRoutes = Record<string, (req: Request) => Promise<Response>>;

export function createPartnerApiServer(api: PartnerApi, routes: ExtraRoutes = {}): http.Server {
  return countingServer(partnerApiListener(api, routes));
}

/** An extra route's Response as an answer. */
const answerOf = (response: Response): Answer => ({
  status: response.status,
  headers: Object.fromEntries(response.headers),
  stream: response.body,
});

/** The adapter alone, for a server that also serves other things (server/http.ts). */
export function partnerApiListener(api: PartnerApi, routes: ExtraRoutes = {}): Listener {
  return async (req, res) => {
    const url = urlOf(req.url ?? "/");
    const method = req.method ?? "GET";
    let answer: Answer;
    const seen: BodySeen = { bytes: 0, dropping: false };
    // fetch refuses TRACE: the Request says GET, and dispatch is told the real method.
    const fetchMethod = method === "TRACE" ? "GET" : method;
    try {
      const body =
        fetchMethod === "GET" || fetchMethod === "HEAD"
          ? undefined
          : declaredSmall(req)
            ? await smallBody(req)
            : bodyOf(req, seen);
      // A body read whole is kept beside the Request (readBody and bodyChunks read it), not made its stream.
      const whole = body instanceof Uint8Array ? body : null;
      const init = {
        method: fetchMethod,
        body: body instanceof ReadableStream ? body : null,
        duplex: "half", // Node's fetch needs it for a streamed request body (not in RequestInit's type)
      };
      const request = new NodeRequest(url, init, req.headers, res);
      if (whole) keepWholeBody(request, whole);
      const extra = method === "GET" || method === "HEAD" ? routes[url.pathname] : undefined;
      answer = extra ? answerOf(await extra(request)) : await api.answer(request, method);
    } catch (error) {
      // Whatever a client sends gets an answer, with its request id: a rejection would leave the socket hanging.
      const requestId = requestIdOf({ headers: new NodeHeaders(req.headers) });
      answer = problemAnswer(toDomainError(error, requestId, api.logger), requestId, { "X-Request-Id": requestId });
    }
    const rest = finishBody(req, answer, seen);
    if (rest) await rest;
    res.writeHead(answer.status, answer.headers);
    if (answer.json !== undefined) res.end(answer.json);
    else if (!answer.stream) res.end();
    else if (STREAMED.test(answerHeader(answer, "content-type") ?? "")) await stream(answer.stream, res);
    else res.end(Buffer.from(await new Response(answer.stream).arrayBuffer()));
  };
}

/** Resolves when `res` drains or closes; the other listener goes (a long stream waits thousands of times). */
const drained = (res: http.ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.once("drain", done).once("close", done);
  });

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
      if (!res.write(value)) await drained(res);
    }
  } finally {
    res.end();
  }
}
