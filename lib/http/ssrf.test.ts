import { describe, expect, it } from "vitest";
import { guardedLookup, isBlockedAddress, SsrfBlockedError, urlProblem, type Resolver } from "./ssrf";

describe("isBlockedAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::127.0.0.1",
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "0.0.0.0",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "febf::1",
    "ff02::1",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "192.0.2.10",
    "198.51.100.1",
    "203.0.113.5",
    "198.18.0.1",
    "::ffff:10.1.2.3",
    "::ffff:192.168.0.1",
    "64:ff9b::a00:1",
    "2002:c0a8:101::1",
    "::",
    "not-an-ip",
    // IPv4 translated (SIIT) and NAT64 forms reach the embedded IPv4 address.
    "::ffff:0:7f00:1",
    "64:ff9b::7f00:1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::1",
    "2001:db8::1",
    "2001::1",
    "3fff::1",
    "5f00::1",
    "100::1",
    "fe80::1%eth0",
    "fec0::1",
    "0.1.2.3",
    "100.64.0.0",
  ])("blocks %s", (ip) => expect(isBlockedAddress(ip)).toBe(true));

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "::ffff:93.184.216.34",
    "64:ff9b::5db8:d822",
    "2a00:1450:4003:80e::200e",
  ])("allows %s", (ip) => expect(isBlockedAddress(ip)).toBe(false));
});

const resolver =
  (table: Record<string, string[]>): Resolver =>
  async (host) =>
    (table[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

const lookup = (fn: ReturnType<typeof guardedLookup>, host: string, all = false) =>
  new Promise<{ error: Error | null; address: unknown }>((resolve) =>
    fn(host, { all }, (error, address) => resolve({ error, address })),
  );

describe("guardedLookup (checked when the socket connects)", () => {
  const table = {
    "public.example": ["93.184.216.34"],
    "rebind.example": ["93.184.216.34", "10.0.0.7"],
    "private.example": ["192.168.0.10"],
  };

  it("refuses a hostname resolving to a private address, even among public ones (DNS rebinding)", async () => {
    for (const host of ["private.example", "rebind.example"]) {
      const { error } = await lookup(guardedLookup(resolver(table), false), host);
      expect(error).toBeInstanceOf(SsrfBlockedError);
    }
  });

  it("passes a public address, in both lookup forms", async () => {
    expect(await lookup(guardedLookup(resolver(table), false), "public.example")).toEqual({
      error: null,
      address: "93.184.216.34",
    });
    expect(await lookup(guardedLookup(resolver(table), false), "public.example", true)).toEqual({
      error: null,
      address: [{ address: "93.184.216.34", family: 4 }],
    });
  });

  it("fails as not found when nothing usable resolves", async () => {
    const { error } = await lookup(guardedLookup(resolver(table), false), "nowhere.example");
    expect(error).toMatchObject({ code: "ENOTFOUND" });
    const v6only = await new Promise<Error | null>((resolve) =>
      guardedLookup(resolver(table), false)("public.example", { family: 6 }, (e) => resolve(e)),
    );
    expect(v6only).toMatchObject({ code: "ENOTFOUND" });
  });

  it("allow-private lifts the check (development and tests only)", async () => {
    expect((await lookup(guardedLookup(resolver(table), true), "private.example")).error).toBeNull();
  });
});

describe("urlProblem (endpoint creation)", () => {
  it("requires https in live mode", () => {
    expect(urlProblem("http://example.com/hook", "live", false)).toMatch(/https/);
    expect(urlProblem("https://example.com/hook", "live", false)).toBeNull();
    expect(urlProblem("http://example.com/hook", "test", false)).toBeNull();
  });
  it("refuses literal private addresses, local names, credentials and other schemes", () => {
    expect(urlProblem("https://127.0.0.1/x", "test", false)).toMatch(/private/);
    expect(urlProblem("https://[::1]/x", "test", false)).toMatch(/private/);
    expect(urlProblem("https://[::ffff:169.254.169.254]/x", "test", false)).toMatch(/private/);
    expect(urlProblem("https://localhost/x", "test", false)).toMatch(/local/);
    expect(urlProblem("https://user:pw@example.com/x", "test", false)).toMatch(/credentials/);
    expect(urlProblem("ftp://example.com/x", "test", false)).toMatch(/https/);
    expect(urlProblem("not a url", "test", false)).toMatch(/absolute/);
    expect(urlProblem("https://example.com/a\u0000b", "test", false)).toMatch(/control characters/);
    expect(urlProblem("https://exa\tmple.com/", "test", false)).toMatch(/control characters/);
    expect(urlProblem("https://[fe80::1]/x", "test", false)).toMatch(/private/);
    expect(urlProblem("https://localhost./x", "test", false)).toMatch(/local/);
    expect(urlProblem("https://metadata.google.internal/x", "test", false)).toMatch(/local/);
    expect(urlProblem("https://127.0.0.1/x", "test", true)).toBeNull();
  });
  it("refuses single-label and cluster-internal names, and URLs longer than the API allows", () => {
    expect(urlProblem("https://postgres/x", "live", false)).toMatch(/fully qualified/);
    expect(urlProblem("https://postgres:5432/x", "test", false)).toMatch(/fully qualified/);
    expect(urlProblem("https://kubernetes.default.svc/x", "live", false)).toMatch(/local/);
    expect(urlProblem("https://api.default.svc.cluster.local/x", "live", false)).toMatch(/local/);
    expect(urlProblem(`https://example.com/${"a".repeat(500_000)}`, "test", false)).toMatch(/at most 2048/);
    expect(urlProblem("https://hooks.example.com/x", "live", false)).toBeNull();
  });
  it("sees through the IPv4 spellings the URL parser normalises", () => {
    expect(urlProblem("http://2130706433/x", "test", false)).toMatch(/private/);
    expect(urlProblem("http://0x7f.1/x", "test", false)).toMatch(/private/);
    expect(urlProblem("http://0177.0.0.1/x", "test", false)).toMatch(/private/);
  });
});
