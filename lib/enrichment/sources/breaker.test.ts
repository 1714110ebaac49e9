// The register breaker against the local replay server, through the live cadastre client: failures
// open it, an open breaker ends lookups at once as register_unavailable without a request, and after
// the cool-down one trial request closes it when the register has recovered (or reopens it).
// The cool-down timer is faked so that "still open" never depends on how fast the host is.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { startReplayServer, type ReplayServer } from "./testing/replay-server";
import { createBreakers, type BreakerState } from "./breaker";
import { createLiveCadastre } from "./cadastre/live";
import { liveClient } from "./http";

const recorded = (name: string) => readFileSync(path.join(__dirname, "cadastre", "fixtures", name), "utf8");
const input = (reference: string) => ({
  reference,
  mode: "live" as const,
  attempt: 1,
  signal: new AbortController().signal,
});
const DNPRC = /Consulta_DNPRC/;

let server: ReplayServer;
let healthy = false;
beforeAll(async () => {
  server = await startReplayServer();
  // Down (HTTP 503) until `healthy`; a definite "no such property" (cod 5) once it is.
  server.on(DNPRC, () =>
    healthy
      ? { body: recorded("json-dnprc-notfound-cod5.json") }
      : { status: 503, body: "Service Unavailable", contentType: "text/plain" },
  );
  server.on(/Consulta_CPMRC/, { status: 500, body: "", contentType: "text/plain" });
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
  healthy = false;
});

function setup() {
  const states: BreakerState[] = [];
  const rejected: string[] = [];
  const requests: boolean[] = [];
  const breakers = createBreakers(
    { errorPercent: 50, minRequests: 3, windowMs: 600_000, cooldownMs: 30_000 },
    { state: (_, s) => states.push(s), rejected: (p) => rejected.push(p), request: (_, ok) => requests.push(ok) },
  );
  // A fresh reference per lookup: the client caches answers and coalesces identical lookups.
  let n = 0;
  const cadastre = createLiveCadastre({ baseUrl: server.url, coordinatesBaseUrl: server.url, breakers });
  return {
    breakers,
    states,
    rejected,
    requests,
    lookup: () => cadastre.lookup(input(`9398516VK3799G${String(++n).padStart(4, "0")}AB`)),
  };
}

it("opens after repeated failures, fails fast while open, closes after a successful trial", async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const b = setup();
  const before = server.count(DNPRC);
  for (let i = 0; i < 3; i++)
    expect(await b.lookup()).toMatchObject({ kind: "error", code: "upstream_status_503", provider: "catastro-ovc" });
  expect(b.states).toEqual(["open"]);
  expect(b.breakers.states()).toEqual({ "catastro-ovc": "open" });
  expect(b.breakers.lastFailure("catastro-ovc")?.message).toMatch(/^upstream_status_503: HTTP 503/);

  // Open: at once, no request, a retryable error naming the register.
  healthy = true;
  const refused = await b.lookup();
  expect(refused).toMatchObject({ kind: "error", code: "register_unavailable", provider: "catastro-ovc" });
  expect(refused).not.toHaveProperty("permanent");
  expect(server.count(DNPRC)).toBe(before + 3);
  expect(b.rejected).toEqual(["catastro-ovc"]);

  // After the cool-down: one trial request, answered, closes it.
  vi.advanceTimersByTime(30_000);
  expect(b.states).toEqual(["open", "half_open"]);
  expect(await b.lookup()).toMatchObject({ kind: "not_found", provider: "catastro-ovc" });
  expect(b.states).toEqual(["open", "half_open", "closed"]);
  expect(server.count(DNPRC)).toBe(before + 4);
  expect(await b.lookup()).toMatchObject({ kind: "not_found" });
  expect(b.requests).toEqual([false, false, false, true, true]);
  b.breakers.shutdown();
});

it("a failed trial opens it again; answers and permanent errors never count as failures", async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const b = setup();
  for (let i = 0; i < 3; i++) await b.lookup();
  vi.advanceTimersByTime(30_000);
  expect(await b.lookup()).toMatchObject({ code: "upstream_status_503" }); // the trial, still down
  expect(b.states).toEqual(["open", "half_open", "open"]);
  expect(await b.lookup()).toMatchObject({ code: "register_unavailable" });
  b.breakers.shutdown();

  // A register answering "no such property", or a request it can never answer, is healthy.
  healthy = true;
  const c = setup();
  for (let i = 0; i < 5; i++) expect(await c.lookup()).toMatchObject({ kind: "not_found" });
  const permanent = await c.breakers.guard("catastro-ovc", async () => ({
    kind: "error" as const,
    code: "catastro_12",
    message: "cod 12",
    permanent: true,
  }));
  expect(permanent).toMatchObject({ code: "catastro_12", permanent: true });
  expect(c.states).toEqual([]);
  c.breakers.shutdown();
});

it("an open breaker answers at once while every place is held by requests sent before it opened", async () => {
  // Any failure opens it: the two requests still in flight count among those made.
  const breakers = createBreakers({ errorPercent: 1, minRequests: 1, windowMs: 600_000, cooldownMs: 30_000 });
  const { ask } = liveClient({ breakers, maxConcurrent: 2 });
  const lookup = { signal: new AbortController().signal };
  // Two requests to a register that never answers hold both places (their own timeouts are far off).
  for (const key of ["hung-1", "hung-2"]) void ask(key, lookup, "catastro-ovc", () => new Promise<never>(() => {}));
  const down = { kind: "error", code: "upstream_status_503", message: "HTTP 503" } as const;
  expect(await breakers.guard("catastro-ovc", async () => down)).toMatchObject(down);
  expect(breakers.states()).toEqual({ "catastro-ovc": "open" });
  const fetch = vi.fn(async () => ({ kind: "not_found" as const, provider: "catastro-ovc" as const }));
  expect(await ask("next", lookup, "catastro-ovc", fetch)).toMatchObject({ code: "register_unavailable" });
  expect(fetch).not.toHaveBeenCalled();
  breakers.shutdown();
});
