// Preloaded into the lean server by bench/create's `lean-hooks` target: one AsyncLocalStorage entered, as
// Next.js does in `npm start`'s process, so that Node 20 runs its promise hooks for every promise the
// API makes. The same handlers with and without them: what sharing a process with Next.js costs a create.
import { AsyncLocalStorage } from "node:async_hooks";

new AsyncLocalStorage().enterWith({});
