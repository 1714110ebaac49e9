import { describe, expect, it } from "vitest";
import { askedOrigin, isForeignServerAction } from "./origin";

const action = (headers: Record<string, string>, method = "POST") =>
  isForeignServerAction(method, new Headers({ host: "finca.example", "next-action": "7f00", ...headers }));

describe("isForeignServerAction", () => {
  it("refuses an action from another origin, a null origin or one that is no URL", () => {
    for (const origin of ["https://evil.example", "https://finca.example.evil.example", "null", "::bad::"])
      expect(action({ origin }), origin).toBe(true);
    // A form posted without JavaScript: multipart, no Next-Action header.
    const form = new Headers({ host: "finca.example", origin: "https://evil.example" });
    form.set("content-type", "multipart/form-data; boundary=x");
    expect(isForeignServerAction("POST", form)).toBe(true);
  });

  it("lets through what Next.js runs: its own origin (X-Forwarded-Host first), no origin, no action", () => {
    expect(action({ origin: "https://finca.example" })).toBe(false);
    expect(action({ origin: "http://finca.example" })).toBe(false);
    expect(
      action({ host: "10.0.0.5:3000", "x-forwarded-host": "finca.example, proxy", origin: "https://finca.example" }),
    ).toBe(false);
    expect(action({})).toBe(false);
    expect(action({ origin: "https://evil.example" }, "GET")).toBe(false);
    const json = new Headers({
      host: "finca.example",
      origin: "https://evil.example",
      "content-type": "application/json",
    });
    expect(isForeignServerAction("POST", json)).toBe(false);
  });
});

describe("askedOrigin", () => {
  const origin = (headers: Record<string, string>) => askedOrigin(new Headers(headers));

  it("is the host asked on (a proxy's X-Forwarded-Host first), on https only when X-Forwarded-Proto says so", () => {
    expect(origin({ host: "API.finca.example:8080" })).toBe("http://api.finca.example:8080");
    expect(
      origin({ host: "10.0.0.5:3000", "x-forwarded-host": "finca.example, proxy", "x-forwarded-proto": "https" }),
    ).toBe("https://finca.example");
    expect(origin({ host: "finca.example", "x-forwarded-proto": "gopher" })).toBe("http://finca.example");
    expect(origin({ host: "[::1]:4400" })).toBe("http://[::1]:4400");
  });

  it("is none without a host, or with one that is more than a host", () => {
    expect(origin({})).toBeNull();
    for (const host of ["evil.example/docs", "user@finca.example", "finca.example?x=1", "a b", "finca.example:99999"])
      expect(origin({ host }), host).toBeNull();
  });
});
