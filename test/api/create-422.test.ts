import { describe, expect, it } from "vitest";
import { useTestApp, post, problemOf, type TestApp, BASE } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

async function expect422(req: Request, errors: { pointer: string; detail?: RegExp | string }[]) {
  const res = await t.api.createProperty(req);
  expect(res.status).toBe(422);
  const problem = await problemOf(res);
  expect(problem).toMatchObject({ status: 422, code: "validation_error", title: "Validation error" });
  expect(problem.errors?.map((e) => e.pointer)).toEqual(errors.map((e) => e.pointer));
  for (const [i, e] of errors.entries()) if (e.detail) expect(problem.errors![i]!.detail).toMatch(e.detail);
  // Authenticated writes count against the limit whatever their outcome.
  expect(res.headers.get("ratelimit")).toMatch(/^"writes";r=\d+;t=\d+$/);
}

describe("POST /properties → 422 validation_error", () => {
  it("body is not JSON", async () => {
    await expect422(post("/properties", "{cadastral_reference:", { "X-API-Key": key }), [
      { pointer: "", detail: /not valid JSON/ },
    ]);
  });
  it("empty body", async () => {
    await expect422(post("/properties", "", { "X-API-Key": key }), [{ pointer: "" }]);
  });
  it.each([
    ["array", "[]"],
    ["string", '"2749704YJ0624N0001DI"'],
    ["null", "null"],
    ["number", "42"],
  ])("body is not an object: %s", async (_, raw) => {
    await expect422(post("/properties", raw, { "X-API-Key": key }), [{ pointer: "", detail: /object/ }]);
  });
  it("missing field", async () => {
    await expect422(post("/properties", {}, { "X-API-Key": key }), [
      { pointer: "/cadastral_reference", detail: "required" },
    ]);
  });
  it.each([
    ["number", 2749704],
    ["null", null],
    ["array", ["2749704YJ0624N0001DI"]],
    ["object", { ref: "x" }],
  ])("wrong type: %s", async (_, value) => {
    await expect422(post("/properties", { cadastral_reference: value }, { "X-API-Key": key }), [
      { pointer: "/cadastral_reference", detail: /string/ },
    ]);
  });
  it("extra field", async () => {
    await expect422(
      post("/properties", { cadastral_reference: "2749704YJ0624N0001DI", note: "x" }, { "X-API-Key": key }),
      [{ pointer: "/note", detail: "unknown field" }],
    );
  });
  it.each([["text/plain"], ["application/x-www-form-urlencoded"], ["application/jsonx"]])(
    "wrong Content-Type: %s",
    async (type) => {
      await expect422(
        post(
          "/properties",
          { cadastral_reference: "2749704YJ0624N0001DI" },
          { "X-API-Key": key, "Content-Type": type },
        ),
        [{ pointer: "", detail: /Content-Type/ }],
      );
    },
  );
  it("missing Content-Type", async () => {
    const req = new Request(BASE + "/properties", {
      method: "POST",
      headers: { "X-API-Key": key },
      body: new Blob(['{"cadastral_reference":"2749704YJ0624N0001DI"}']),
    });
    await expect422(req, [{ pointer: "", detail: /Content-Type/ }]);
  });
  it("body over the size cap", async () => {
    await expect422(post("/properties", { cadastral_reference: "x".repeat(20_000) }, { "X-API-Key": key }), [
      { pointer: "", detail: /exceed/ },
    ]);
  });
  it("invalid UTF-8", async () => {
    const req = new Request(BASE + "/properties", {
      method: "POST",
      headers: { "X-API-Key": key, "Content-Type": "application/json" },
      body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    await expect422(req, [{ pointer: "", detail: /UTF-8/ }]);
  });
});
