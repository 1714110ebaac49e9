// `finca listen` on the server side: a partner's test-mode events, as they are recorded, over one
// long-lived Server-Sent Events response, each already signed exactly as a delivery is (same
// webhook-id, body and Standard Webhooks headers), for the CLI to forward to a local receiver.
import { createHmac } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { rowsOf, schema, type Db } from "@/lib/db";
import type { Scope } from "@/lib/domain";
import { messageIdOf, wirePayload } from "./events";
import { webhookHeaders } from "./sign";

const { events } = schema;

/**
 * The signing secret of a key's listen sessions: derived from the key itself, so it is the same
 * on every reconnect and server, and only the key's holder can know it.
 */
export function listenSecret(apiKey: string): string {
  return `whsec_${createHmac("sha256", apiKey).update("finca listen v1").digest("base64")}`;
}

export interface ListenOptions {
  /** How often new events are looked for. */
  pollMs: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** The client went away. */
  signal: AbortSignal;
  /** The server is stopping: the stream ends so the shutdown need not wait for it. */
  stopping(): boolean;
  /** Whether the session's key may still be used; asked every `keyCheckMs` (the database's clock). */
  keyActive(): Promise<boolean>;
  keyCheckMs: number;
  /** A session ends after this long (the CLI reconnects, authenticating again). */
  maxSessionMs: number;
  /** Called once, however the stream ends (client gone, server stopping, database error). */
  onClose(): void;
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** The stream: a `session` event with the secret, then one `webhook` event per new event of the scope. */
export function listenStream(db: Db, scope: Scope, secret: string, options: ListenOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => !closed && controller.enqueue(encoder.encode(text));
      const close = () => {
        if (closed) return;
        closed = true;
        clearTimeout(timer);
        options.onClose();
        controller.close();
      };
      if (options.signal.aborted) return close();
      options.signal.addEventListener("abort", close, { once: true });
      // Events from now on (the database's clock, as the events' own times).
      let cursor = rowsOf<{ now: string; id: string }>(
        await db.execute(sql`select now()::text as now, '00000000-0000-0000-0000-000000000000' as id`),
      )[0]!;
      send(sse("session", { secret, mode: scope.mode }));
      const startedAt = Date.now();
      let lastWrite = startedAt;
      let keyCheckedAt = startedAt;
      const tick = async () => {
        if (closed) return;
        if (options.stopping()) return close();
        if (Date.now() - startedAt >= options.maxSessionMs) {
          send(sse("end", { reason: "session_limit" }));
          return close();
        }
        try {
          // A revoked or expired key stops receiving within a check, not when the client goes.
          if (Date.now() - keyCheckedAt >= options.keyCheckMs) {
            if (!(await options.keyActive())) {
              send(sse("error", { message: "The API key was revoked or has expired: this session ends." }));
              return close();
            }
            keyCheckedAt = Date.now();
          }
          const fresh = await db
            .select({ event: events, at: sql<string>`${events.createdAt}::text` })
            .from(events)
            .where(
              and(
                eq(events.partnerId, scope.partnerId),
                eq(events.mode, scope.mode),
                sql`(${events.createdAt}, ${events.id}) > (${cursor.now}::timestamptz, ${cursor.id}::uuid)`,
              ),
            )
            .orderBy(asc(events.createdAt), asc(events.id))
            .limit(100);
          for (const { event, at } of fresh) {
            const body = wirePayload(event);
            const id = messageIdOf(event.id);
            send(
              sse("webhook", { id, type: event.type, headers: webhookHeaders([secret], id, new Date(), body), body }),
            );
            // The database's own text of the time: a Date would lose its microseconds and repeat events.
            cursor = { now: at, id: event.id };
            lastWrite = Date.now();
          }
        } catch (error) {
          // A database hiccup ends this stream; the CLI reconnects and carries on.
          send(sse("error", { message: (error as Error).message }));
          return close();
        }
        if (Date.now() - lastWrite >= options.heartbeatMs) {
          send(": heartbeat\n\n");
          lastWrite = Date.now();
        }
        if (!closed) timer = setTimeout(() => void tick(), options.pollMs);
      };
      timer = setTimeout(() => void tick(), options.pollMs);
    },
    cancel() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      options.onClose();
    },
  });
}
