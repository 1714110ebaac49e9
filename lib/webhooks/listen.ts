// `finca listen` on the server side: a partner's test-mode events, as they are recorded, over one
// long-lived Server-Sent Events response, each already signed exactly as a delivery is (same
// webhook-id, body and Standard Webhooks headers), for the CLI to forward to a local receiver.
import { createHmac } from "node:crypto";
import { and, asc, sql } from "drizzle-orm";
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

type EventRow = typeof events.$inferSelect;
/** A place in the events' order: microseconds since the epoch (exact, as text) and the id. */
type Cursor = { us: bigint; id: string };
const FIRST_ID = "00000000-0000-0000-0000-000000000000";
const after = (a: Cursor, b: Cursor) => a.us > b.us || (a.us === b.us && a.id > b.id);
const timeSql = (us: bigint) => sql`(${"epoch"}::timestamptz + ${us.toString()}::bigint * interval '1 microsecond')`;
const cursorSql = (c: Cursor) => sql`(${timeSql(c.us)}, ${c.id}::uuid)`;

/**
 * The start of the oldest transaction still open in the database, in microseconds: every event
 * stamped before it is committed (or never will be). An event's stamp is its transaction's start
 * (`now()`), so one committed late can be stamped before events already seen; the poller reads only
 * up to here, in a statement of its own before the events' (whose snapshot then holds them all).
 */
const HORIZON = sql`select (extract(epoch from min(xact_start)) * 1000000)::bigint::text as us
  from pg_stat_activity
  where datname = current_database() and backend_type = 'client backend' and xact_start is not null`;

interface Subscriber {
  scope: Scope;
  /** Events after this are the session's; null while it is being taken (what arrives meanwhile waits). */
  start: Cursor | null;
  waiting: { event: EventRow; at: Cursor }[];
  deliver(event: EventRow): void;
  fail(error: unknown): void;
}

/**
 * The process's one poller of events for every listen session: one poll per `pollMs` however many
 * sessions are open (a query per session every half second let 400 sessions starve the API; a poll
 * is the horizon's statement and the events'), its events fanned out in memory to the sessions of
 * their partner. It polls only while a session is open; an open transaction holds back what it
 * streams, never loses it.
 */
export interface ListenHub {
  /** Events of `scope` recorded from now on, each to `deliver` once, in order; resolves to the unsubscribe. */
  subscribe(scope: Scope, deliver: (event: EventRow) => void, fail: (error: unknown) => void): Promise<() => void>;
  /** Stops polling (the server is stopping). */
  close(): void;
}

/** At most this many events a poll; more wait for the next. */
const POLL_LIMIT = 500;

export function listenHub(db: Db, pollMs: number): ListenHub {
  const subscribers = new Set<Subscriber>();
  // Every event before it has been handed out (or was no session's).
  let cursor: Cursor | null = null;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const poll = async () => {
    timer = undefined;
    const ready = [...subscribers].filter((s) => s.start);
    if (ready.length) {
      // Nothing before the earliest session's start is anyone's.
      const earliest = ready.map((s) => s.start!).reduce((a, b) => (after(a, b) ? b : a));
      if (!cursor || after(earliest, cursor)) cursor = earliest;
      const scopes = [...new Set(ready.map((s) => `${s.scope.partnerId}|${s.scope.mode}`))].map((key) => {
        const [partnerId, mode] = key.split("|");
        return sql`(${partnerId}::uuid, ${mode})`;
      });
      try {
        const [horizon] = rowsOf<{ us: string }>(await db.execute(HORIZON));
        const fresh = await db
          .select({
            event: events,
            us: sql<string>`(extract(epoch from ${events.createdAt}) * 1000000)::bigint::text`,
          })
          .from(events)
          .where(
            and(
              sql`(${events.partnerId}, ${events.mode}) in (${sql.join(scopes, sql`, `)})`,
              sql`(${events.createdAt}, ${events.id}) > ${cursorSql(cursor)}`,
              sql`${events.createdAt} < ${timeSql(BigInt(horizon!.us))}`,
            ),
          )
          .orderBy(asc(events.createdAt), asc(events.id))
          .limit(POLL_LIMIT);
        for (const { event, us } of fresh) {
          const at = { us: BigInt(us), id: event.id };
          for (const s of subscribers) {
            if (s.scope.partnerId !== event.partnerId || s.scope.mode !== event.mode) continue;
            if (!s.start) s.waiting.push({ event, at });
            else if (after(at, s.start)) s.deliver(event);
          }
          cursor = at;
        }
      } catch (error) {
        // A database hiccup ends the sessions (their CLIs reconnect); the poller carries on.
        for (const s of ready) s.fail(error);
      }
    }
    schedule();
  };
  const schedule = () => {
    if (!closed && !timer && subscribers.size) timer = setTimeout(() => void poll(), pollMs);
  };

  return {
    async subscribe(scope, deliver, fail) {
      const subscriber: Subscriber = { scope, start: null, waiting: [], deliver, fail };
      // Registered before its start is read: an event the poller finds meanwhile waits, then is sorted.
      subscribers.add(subscriber);
      schedule();
      const unsubscribe = () => {
        subscribers.delete(subscriber);
        if (!subscribers.size) cursor = null;
      };
      try {
        const [now] = rowsOf<{ us: string }>(
          await db.execute(sql`select (extract(epoch from now()) * 1000000)::bigint::text as us`),
        );
        subscriber.start = { us: BigInt(now!.us), id: FIRST_ID };
      } catch (error) {
        unsubscribe();
        throw error;
      }
      for (const { event, at } of subscriber.waiting.splice(0)) if (after(at, subscriber.start)) deliver(event);
      return unsubscribe;
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

export interface ListenOptions {
  /** How often the session looks at its clock (stopping, its time, its key, a heartbeat). */
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

/** One Server-Sent Event: its name and its data as JSON. */
export const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The stream: a `session` event with the secret, then one `webhook` event per new event of the
 * scope (from the process's hub), heartbeats, and its end when the key goes, the session's time is
 * up, the server stops or the client leaves.
 */
export function listenStream(
  hub: ListenHub,
  scope: Scope,
  secret: string,
  options: ListenOptions,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe = () => {};
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let lastWrite = Date.now();
      const send = (text: string) => {
        if (closed) return;
        controller.enqueue(encoder.encode(text));
        lastWrite = Date.now();
      };
      const close = () => {
        if (closed) return;
        closed = true;
        clearTimeout(timer);
        unsubscribe();
        options.onClose();
        controller.close();
      };
      if (options.signal.aborted) return close();
      options.signal.addEventListener("abort", close, { once: true });
      const deliver = (event: EventRow) => {
        const body = wirePayload(event);
        const id = messageIdOf(event.id);
        send(sse("webhook", { id, type: event.type, headers: webhookHeaders([secret], id, new Date(), body), body }));
      };
      const fail = (error: unknown) => {
        send(sse("error", { message: error instanceof Error ? error.message : String(error) }));
        close();
      };
      try {
        // Events from now on (the database's clock, as the events' own times).
        const stop = await hub.subscribe(scope, deliver, fail);
        if (closed) return stop();
        unsubscribe = stop;
      } catch (error) {
        return fail(error);
      }
      send(sse("session", { secret, mode: scope.mode }));
      const startedAt = Date.now();
      let keyCheckedAt = startedAt;
      const tick = async () => {
        if (closed) return;
        if (options.stopping()) return close();
        if (Date.now() - startedAt >= options.maxSessionMs) {
          send(sse("end", { reason: "session_limit" }));
          return close();
        }
        // A revoked or expired key stops receiving within a check, not when the client goes.
        if (Date.now() - keyCheckedAt >= options.keyCheckMs) {
          try {
            if (!(await options.keyActive())) {
              send(sse("error", { message: "The API key was revoked or has expired: this session ends." }));
              return close();
            }
          } catch (error) {
            return fail(error);
          }
          keyCheckedAt = Date.now();
        }
        if (Date.now() - lastWrite >= options.heartbeatMs) send(": heartbeat\n\n");
        if (!closed) timer = setTimeout(() => void tick(), options.pollMs);
      };
      timer = setTimeout(() => void tick(), options.pollMs);
    },
    cancel() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      unsubscribe();
      options.onClose();
    },
  });
}
