import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startReplayServer, WAF_PAGE, type ReplayServer } from "../testing/replay-server";
import { createLiveCadastre, isCatastroHost } from "./live";

const recorded = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");
const input = (reference: string, signal = new AbortController().signal) => ({
  reference,
  mode: "live" as const,
  attempt: 1,
  signal,
});
const refCat = (reference: string) => new RegExp(`/json/Consulta_DNPRC\\?Provincia=&Municipio=&RefCat=${reference}$`);
const cpmrc = (parcel: string) =>
  new RegExp(`/json/Consulta_CPMRC\\?Provincia=&Municipio=&SRS=EPSG:4326&RefCat=${parcel}$`);

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
  server.on(refCat("9398516VK3799G"), { body: recorded("json-ovc-dnprc-urbana-9398516VK3799G.json") });
  server.on(refCat("13005A10900005"), { body: recorded("json-ovc-dnprc-rustica-13005A10900005.json"), delayMs: 50 });
  server.on(refCat("2749704YJ0624N0001DI"), {
    body: recorded("json-dnprc-20char-single-2749704YJ0624N0001DI.pretty.json"),
  });
  server.on(refCat("9398516VK3799G9404BB"), { body: recorded("json-dnprc-notfound-cod5.json") });
  server.on(refCat("COD17"), { body: recorded("json-ovc-dnprc-cod17.json") });
  server.on(refCat("WAF200"), { body: WAF_PAGE, contentType: "text/html; charset=utf-8" });
  server.on(refCat("WAF400"), { status: 400, body: WAF_PAGE, contentType: "text/html" });
  server.on(refCat("BROKEN"), { body: recorded("json-ovc-dnprc-urbana-9398516VK3799G.json").slice(0, 500) });
  server.on(refCat("ERR500"), { status: 500, body: "Internal Server Error", contentType: "text/plain" });
  server.on(refCat("CUT"), { destroy: true });
  server.on(refCat("HANG\\d*"), { hang: true });
  server.on(refCat("SLOW\\d+"), { body: recorded("json-dnprc-notfound-cod5.json"), delayMs: 60 });
  server.on(cpmrc("9398516VK3799G"), { body: recorded("json-cpmrc-6344205CF7664S.json") });
  server.on(cpmrc("13005A10900005"), { status: 500, body: "Internal Server Error", contentType: "text/plain" });
  server.on(refCat("MOVED"), {
    status: 301,
    body: "",
    contentType: "text/plain",
    headers: { Location: "https://evil.example/json/Consulta_DNPRC" },
  });
});
afterAll(() => server.close());

const cadastre = (options: Parameters<typeof createLiveCadastre>[0] = {}) =>
  createLiveCadastre({ baseUrl: server.url, coordinatesBaseUrl: server.url, ...options });

describe("live cadastre against a replay of Catastro", () => {
  it("asks Consulta_DNPRC by RefCat and parses the recorded answers", async () => {
    const c = cadastre();
    expect(await c.lookup(input("9398516VK3799G"))).toMatchObject({
      kind: "found",
      data: { municipalityCode: "28079", units: 18, yearBuilt: 1997 },
    });
    expect(await c.lookup(input("13005A10900005"))).toMatchObject({
      kind: "found",
      data: { municipality: "ALCAZAR DE SAN JUAN", municipalityCode: "13005", kind: "rustic" },
    });
    expect(await c.lookup(input("2749704YJ0624N0001DI"))).toMatchObject({
      kind: "found",
      data: { municipality: "GODELLETA", municipalityCode: "46136", yearBuilt: 1976 },
    });
  });

  it("accepts a base URL with a trailing slash", async () => {
    expect(await createLiveCadastre({ baseUrl: `${server.url}/` }).lookup(input("9398516VK3799G"))).toMatchObject({
      kind: "found",
    });
  });

  it("classifies failures", async () => {
    const c = cadastre();
    expect(await c.lookup(input("9398516VK3799G9404BB"))).toMatchObject({ kind: "not_found" });
    expect(await c.lookup(input("COD17"))).toEqual({
      kind: "error",
      code: "catastro_17",
      message: "LA REFERENCIA CATASTRAL ES OBLIGATORIA",
      provider: "catastro-ovc",
      permanent: true,
    });
    expect(await c.lookup(input("WAF200"))).toMatchObject({
      kind: "error",
      code: "upstream_html",
      message: expect.stringContaining("No se puede procesar su petición"),
    });
    expect(await c.lookup(input("WAF400"))).toMatchObject({ kind: "error", code: "upstream_status_400" });
    expect(await c.lookup(input("BROKEN"))).toMatchObject({ kind: "error", code: "malformed" });
    expect(await c.lookup(input("ERR500"))).toMatchObject({ kind: "error", code: "upstream_status_500" });
    expect(await c.lookup(input("CUT"))).toMatchObject({ kind: "error", code: "network" });
  });

  it("asks Consulta_CPMRC for the parcel's point, once per parcel; without one, the facts stand with a null location", async () => {
    const c = cadastre();
    expect(await c.lookup(input("9398516VK3799G"))).toMatchObject({
      kind: "found",
      data: { location: { latitude: 41.2205317242857, longitude: 1.52328890356962 } },
    });
    const asked = server.count(cpmrc("9398516VK3799G"));
    await c.lookup(input("9398516VK3799G0002SU")); // another unit of the parcel (its DNPRC is not replayed: an error)
    await c.lookup(input("9398516VK3799G"));
    expect(server.count(cpmrc("9398516VK3799G"))).toBe(asked);
    expect(await c.lookup(input("13005A10900005"))).toMatchObject({
      kind: "found",
      data: { municipalityCode: "13005", location: null },
    });
  });

  it("follows no redirect off Catastro's own hosts", async () => {
    expect(await cadastre().lookup(input("MOVED"))).toMatchObject({
      kind: "error",
      code: "redirect",
      message: expect.stringContaining("evil.example"),
    });
    expect(isCatastroHost(new URL("https://ovc.catastro.hacienda.gob.es/OVCServWeb/"))).toBe(true);
    expect(isCatastroHost(new URL("https://ovc.catastro.meh.es/x"))).toBe(true);
    expect(isCatastroHost(new URL("http://ovc.catastro.meh.es/x"))).toBe(false);
    expect(isCatastroHost(new URL("https://catastro.meh.es.evil.example/x"))).toBe(false);
  });

  it("gives up on a hanging register at its timeout", async () => {
    expect(await cadastre({ timeoutMs: 150 }).lookup(input("HANG1"))).toEqual({
      kind: "error",
      code: "timeout",
      message: "no complete answer within 150 ms",
    });
  });

  it("stops waiting when the caller's deadline aborts, before the request's own timeout", async () => {
    expect(await cadastre({ timeoutMs: 30_000 }).lookup(input("HANG2", AbortSignal.timeout(100)))).toEqual({
      kind: "error",
      code: "timeout",
      message: "aborted by the deadline",
    });
  });

  it("caches definite answers: a second lookup sends nothing", async () => {
    const c = cadastre();
    const before = server.count(refCat("13005A10900005"));
    await c.lookup(input("13005A10900005"));
    expect(await c.lookup(input("13005A10900005"))).toMatchObject({ kind: "found", summary: { cached: true } });
    expect(server.count(refCat("13005A10900005")) - before).toBe(1);
    const missing = server.count(refCat("9398516VK3799G9404BB"));
    await c.lookup(input("9398516VK3799G9404BB"));
    await c.lookup(input("9398516VK3799G9404BB"));
    expect(server.count(refCat("9398516VK3799G9404BB")) - missing).toBe(1);
  });

  it("does not cache failures", async () => {
    const c = cadastre();
    const before = server.count(refCat("ERR500"));
    await c.lookup(input("ERR500"));
    await c.lookup(input("ERR500"));
    expect(server.count(refCat("ERR500")) - before).toBe(2);
  });

  it("coalesces 10 concurrent lookups of one reference into one request", async () => {
    const c = cadastre();
    const before = server.count(refCat("13005A10900005"));
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => c.lookup(input("13005A10900005"))));
    expect(outcomes.every((o) => o.kind === "found")).toBe(true);
    expect(server.count(refCat("13005A10900005")) - before).toBe(1);
  });

  it("never has more than the cap in flight", async () => {
    const c = cadastre({ maxConcurrent: 3 });
    const hanging = server.inFlight(); // earlier tests' hung requests may still be open
    server.resetPeak();
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => c.lookup(input(`SLOW${i}`))));
    expect(outcomes.every((o) => o.kind === "not_found")).toBe(true);
    expect(server.maxInFlight() - hanging).toBe(3);
  });

  it("a lookup queued behind the cap leaves the queue at its deadline", async () => {
    const c = cadastre({ maxConcurrent: 1, timeoutMs: 400 });
    const busy = c.lookup(input("HANG3")); // holds the only slot until its timeout
    const before = server.count(refCat("SLOW99"));
    expect(await c.lookup(input("SLOW99", AbortSignal.timeout(100)))).toEqual({
      kind: "error",
      code: "timeout",
      message: "aborted by the deadline",
    });
    await busy;
    // Had SLOW99 stayed queued, it would take the freed slot before this one.
    await c.lookup(input("SLOW98"));
    expect(server.count(refCat("SLOW99"))).toBe(before); // never sent
  });
});
