// Raw HTTP/1.1 over a socket, for what only a real server sees: any bytes, broken framing, bodies
// that never end, aborted requests.
import net from "node:net";
import { NEVER_MS } from "./bounds";
import type { Answer } from "./contract";

/** Node's own answer to a request it could not parse (before any handler runs): no request id, no body. */
export const isParserRejection = (answer: Answer) =>
  [400, 413, 431].includes(answer.status) && answer.headers.get("x-request-id") === null;

/** The first complete answer in the bytes received so far, or null. */
function parse(received: Buffer, head: boolean, closed: boolean): Answer | null {
  const end = received.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine, ...lines] = received.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
  // An interim answer (100 Continue) precedes the real one.
  if (status >= 100 && status < 200) return parse(received.subarray(end + 4), head, closed);
  const headers = new Headers();
  for (const line of lines) headers.append(line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim());
  const rest = received.subarray(end + 4);
  const answer = (body: Buffer) => ({ status, headers, body: body.toString("utf8") });
  if (head || status === 204 || status === 304) return answer(Buffer.alloc(0));
  const length = headers.get("content-length");
  if (length !== null) return rest.length >= Number(length) ? answer(rest.subarray(0, Number(length))) : null;
  if (headers.get("transfer-encoding")?.toLowerCase() === "chunked") {
    const chunks: Buffer[] = [];
    for (let at = 0; ; ) {
      const lineEnd = rest.indexOf("\r\n", at);
      if (lineEnd < 0) return null;
      const size = parseInt(rest.subarray(at, lineEnd).toString("latin1"), 16);
      if (size === 0) return answer(Buffer.concat(chunks));
      if (rest.length < lineEnd + 2 + size + 2) return null;
      chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  return closed ? answer(rest) : null;
}

export interface Exchange {
  /** The answer, or null when none came before the socket closed or the timeout. */
  answer: Answer | null;
  /** Bytes written before the answer was complete. */
  written: number;
}

/**
 * Sends the parts in order (waiting `pauseMs` between them, stopping once an answer is complete),
 * then reads the first answer. `abort` destroys the socket right after the last part.
 */
export function exchange(
  port: number,
  parts: (string | Uint8Array)[],
  options: { head?: boolean; pauseMs?: number; timeoutMs?: number; abort?: boolean } = {},
): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    let written = 0;
    let done = false;
    const finish = (answer: Answer | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, written });
    };
    // By default only silence counts as no answer, not a slow one.
    const timer = setTimeout(() => finish(null), options.timeoutMs ?? NEVER_MS);
    socket.on("data", (data) => {
      received.push(data);
      const answer = parse(Buffer.concat(received), options.head ?? false, false);
      if (answer) finish(answer);
    });
    socket.on("error", () => {}); // a reset is reported as a missing answer
    socket.on("close", () => finish(parse(Buffer.concat(received), options.head ?? false, true)));
    socket.on("connect", async () => {
      for (const part of parts) {
        if (done || socket.destroyed) return;
        const bytes = typeof part === "string" ? Buffer.from(part, "latin1") : part;
        if (!socket.write(bytes)) await new Promise((r) => socket.once("drain", r).once("close", r));
        written += bytes.byteLength;
        if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
      }
      if (options.abort) finish(null);
    });
  });
}
