import { describe, expect, it } from "vitest";
import { safeNextPath } from "./redirect";

describe("safeNextPath", () => {
  it.each([
    "/..//evil.example/x",
    "/.//evil.example/x",
    "/\t/evil.example/x",
    "/\n/evil.example/x",
    "//evil.example/x",
    "/\\evil.example/x",
    "/\\/evil.example",
    "/%2e%2e//evil.example/x",
    "https://evil.example/x",
    "javascript:alert(1)",
    "evil.example",
    "",
  ])("refuses %j", (next) => {
    expect(safeNextPath(next)).toBe("/dashboard");
  });

  it("keeps a same-site path, normalised, with its query and fragment", () => {
    expect(safeNextPath("/properties?status=failed#top")).toBe("/properties?status=failed#top");
    expect(safeNextPath("/keys/../webhooks")).toBe("/webhooks");
    expect(safeNextPath(undefined, "/admin")).toBe("/admin");
  });
});
