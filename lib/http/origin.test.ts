import { describe, expect, it } from "vitest";
import { isForeignServerAction } from "./origin";

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
