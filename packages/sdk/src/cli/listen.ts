// `finca listen`: a partner's test-mode events forwarded to a local receiver, signed as real
// deliveries (like `stripe listen`), over one Server-Sent Events connection to the server.
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { clientOf, messageOf, UsageError } from "./batch.js";

class ListenRefused extends Error {}

/**
 * `listen`: one long-lived Server-Sent Events connection to the server's listen operation, each
 * event POSTed to the local URL with the headers the server signed; reconnects with backoff.
 */
export async function listenCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { key: { type: "string" }, "forward-to": { type: "string" }, "base-url": { type: "string" } },
  });
  // From the environment, a key stays out of `ps` and shell history.
  const { key, base } = await clientOf(values);
  const target = typeof values["forward-to"] === "string" ? values["forward-to"].trim() : "";
  if (!target) throw new UsageError("--forward-to is required");
  if (!URL.canParse(target) || !/^https?:$/.test(new URL(target).protocol))
    throw new UsageError("--forward-to must be an http(s) URL");
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
  let delayMs = 1000;
  let announced = "";
  while (!stop.signal.aborted) {
    try {
      const res = await fetch(new URL("/api/v1/partner-api/webhooks/listen", base), {
        headers: { "X-API-Key": key, Accept: "text/event-stream" },
        signal: stop.signal,
      });
      if (!res.ok) {
        const problem = (await res.json().catch(() => ({}))) as { detail?: string };
        const message = `the server answered ${res.status}: ${problem.detail ?? res.statusText}`;
        // A key the server refuses will not be accepted on a retry either.
        if (res.status === 401 || res.status === 422) throw new ListenRefused(message);
        throw new Error(message);
      }
      delayMs = 1000;
      const messages = res
        .body!.pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream())
        .getReader();
      for (let next = await messages.read(); !next.done; next = await messages.read()) {
        const message = next.value;
        if (message.event === "session") {
          const { secret } = JSON.parse(message.data) as { secret: string };
          if (secret !== announced)
            console.log(`Ready: forwarding test-mode events to ${target}\nSigning secret: ${secret}`);
          else console.log("Reconnected.");
          announced = secret;
        } else if (message.event === "webhook") {
          await forward(
            target,
            JSON.parse(message.data) as { id: string; type: string; headers: Record<string, string>; body: string },
          );
        } else if (message.event === "error") {
          console.error(`server: ${(JSON.parse(message.data) as { message: string }).message}`);
        }
      }
      if (!stop.signal.aborted) console.error("The server closed the connection.");
    } catch (error) {
      if (stop.signal.aborted) break;
      if (error instanceof ListenRefused) throw error;
      console.error(`Connection lost (${messageOf(error)}).`);
    }
    if (stop.signal.aborted) break;
    console.error(`Reconnecting in ${delayMs / 1000} s…`);
    await sleep(delayMs, undefined, { signal: stop.signal }).catch(() => {});
    delayMs = Math.min(delayMs * 2, 30_000);
  }
}

/** POSTs one event as the server signed it and prints the local receiver's answer. */
async function forward(
  target: string,
  webhook: { id: string; type: string; headers: Record<string, string>; body: string },
): Promise<void> {
  const started = Date.now();
  const line = `${new Date().toISOString()}  --> ${webhook.type} [${webhook.id}]`;
  try {
    const res = await fetch(target, {
      method: "POST",
      headers: webhook.headers,
      body: webhook.body,
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    console.log(`${line}  <-- ${res.status} ${res.statusText} (${Date.now() - started} ms)`);
  } catch (error) {
    console.log(`${line}  <-- failed: ${messageOf(error)}`);
  }
}
