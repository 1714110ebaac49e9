import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startReplayServer, WAF_PAGE, type ReplayServer } from "../testing/replay-server";
import { createLiveCadastre } from "./live";

const recorded = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");
const input = (reference: string, signal = new AbortController().signal) => ({ reference, mode: "live" as const, attempt: 1, signal });

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
  server.on(/RefCat=9398516VK3799G$/, { body: recorded("json-ovc-dnprc-urbana-9398516VK3799G.json") });
  server.on(/RefCat=13005A10900005$/, { body: recorded("json-ovc-dnprc-rustica-13005A10900005.json"), delayMs: 50 });
  server.on(/RefCat=NOTFOUND0000001$/, { body: recorded("json-dnprc-notfound-cod5.json") });
  server.on(/RefCat=WAF/, { status: 200, body: WAF_PAGE, contentType: "text/html" });
  server.on(/RefCat=WAF400/, { status: 400, body: WAF_PAGE, contentType: "text/html" });
  server.on(/RefCat=BROKEN/, { body: '{"consulta_dnprcResult": {' });
  server.on(/RefCat=ERR500/, { status: 500, body: "oops", contentType: "text/plain" });
  server.on(/RefCat=HANG/, { hang: true });
  server.on(/RefCat=SLOW/, { body: recorded("json-dnprc-notfound-cod5.json"), delayMs: 100 });
});
afterAll(() => server.close());

const cadastre = (options: Parameters<typeof createLiveCadastre>[0] = {}) => createLiveCadastre({ baseUrl: server.url, ...options });

describe("live cadastre against a replay of Catastro", () => {
  it("asks Consulta_DNPRC by RefCat and parses the answer", async () => {
    const outcome = await cadastre().lookup(input("9398516VK3799G"));
    expect(outcome).toMatchObject({ kind: "found", data: { municipalityCode: "28079", units: 18 } });
    expect(server.requests.at(-1)!.pathname).toBe("/json/Consulta_DNPRC");
  });

  it("classifies failures", async () => {
    const c = cadastre();
    expect(await c.lookup(input("NOTFOUND0000001"))).toMatchObject({ kind: "not_found" });
    expect(await c.lookup(input("WAF0000000000001"))).toMatchObject({ kind: "error", code: "upstream_html" });
    expect(await c.lookup(input("WAF400000000001"))).toMatchObject({ kind: "error", code: "upstream_status_400" });
    expect(await c.lookup(input("BROKEN00000001"))).toMatchObject({ kind: "error", code: "malformed" });
    expect(await c.lookup(input("ERR50000000001"))).toMatchObject({ kind: "error", code: "upstream_status_500" });
  });

  it("gives up on a hanging register at its timeout", async () => {
    const started = Date.now();
    expect(await cadastre({ timeoutMs: 200 }).lookup(input("HANG0000000001"))).toMatchObject({ kind: "error", code: "timeout" });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("stops waiting when the caller's deadline aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    expect(await cadastre({ timeoutMs: 10_000 }).lookup(input("HANG0000000002", controller.signal))).toMatchObject({ kind: "error", code: "timeout" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("caches definite answers: a second lookup asks nothing", async () => {
    const c = cadastre();
    const before = server.requests.length;
    await c.lookup(input("13005A10900005"));
    await c.lookup(input("13005A10900005"));
    expect(server.requests.length - before).toBe(1);
  });

  it("does not cache failures", async () => {
    const c = cadastre();
    const before = server.requests.length;
    await c.lookup(input("ERR50000000001"));
    await c.lookup(input("ERR50000000001"));
    expect(server.requests.length - before).toBe(2);
  });

  it("coalesces concurrent lookups of one reference into one request", async () => {
    const c = cadastre();
    const before = server.requests.length;
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => c.lookup(input("13005A10900005"))));
    expect(outcomes.every((o) => o.kind === "found")).toBe(true);
    expect(server.requests.length - before).toBe(1);
  });

  it("never has more than the cap in flight", async () => {
    const c = cadastre({ maxConcurrent: 3 });
    const hanging = server.inFlight(); // earlier tests' hung requests are still open
    server.resetPeak();
    await Promise.all(Array.from({ length: 12 }, (_, i) => c.lookup(input(`SLOW${String(i).padStart(10, "0")}`))));
    expect(server.maxInFlight() - hanging).toBe(3);
  });
});
