// The request a portal page or action serves, as an AbortSignal that aborts when its client goes:
// Next.js gives a server action none, so `npm start`'s front door (./http.ts) runs each request
// Next.js serves inside an AsyncLocalStorage holding one. Next.js bundles its own copy of this
// module, so the storage is the process's, found under a global symbol by both copies.
import { AsyncLocalStorage } from "node:async_hooks";
import type http from "node:http";

const KEY = Symbol.for("finca.request-signal");
const holder = globalThis as { [KEY]?: AsyncLocalStorage<AbortSignal> };
const storage = (holder[KEY] ??= new AsyncLocalStorage<AbortSignal>());

/** Runs `serve` with a signal that aborts when the response closes before it was finished (the client gone). */
export function withRequestSignal<T>(res: http.ServerResponse, serve: () => T): T {
  const gone = new AbortController();
  res.once("close", () => !res.writableFinished && gone.abort(new Error("the client went away")));
  return storage.run(gone.signal, serve);
}

/** The current request's signal; undefined outside the front door (`next dev`, tests). */
export const requestSignal = (): AbortSignal | undefined => storage.getStore();
