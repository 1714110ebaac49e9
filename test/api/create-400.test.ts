import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { countOf } from "../support/database";
import { useTestApp, post, problemOf, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

const create = (reference: string) =>
  t.api.createProperty(post("/properties", { cadastral_reference: reference }, { "X-API-Key": key }));

describe("POST /properties → 400 invalid_cadastral_reference", () => {
  it.each([
    ["too short", "9398516VK3799"],
    ["18 characters", "9398516VK3799G0001"],
    ["between 14 and 20", "9398516VK3799G001"],
    ["too long", "9398516VK3799G0001AYZ"],
    ["empty", ""],
    ["only separators", " - - "],
  ])("length: %s", async (_, reference) => {
    const res = await create(reference);
    expect(res.status).toBe(400);
    const problem = await problemOf(res);
    expect(problem).toMatchObject({
      status: 400,
      code: "invalid_cadastral_reference",
      title: "Invalid cadastral reference",
    });
    expect(problem.detail).toMatch(/14 \(parcel\) or 20 \(unit\)/);
  });

  it.each([
    ["underscore", "9398516VK3799G_001AY"],
    ["dot", "9398516VK3799G.001AY"],
    ["accented letter", "9398516VK3799É0001AY"],
    ["slash", "9398516/K3799G"],
  ])("charset: %s", async (_, reference) => {
    const res = await create(reference);
    expect(res.status).toBe(400);
    expect((await problemOf(res)).detail).toMatch(/only digits/);
  });

  it.each(["7837301VG8173B0001NN", "9398516VK3799G0001YA", "2749704YJ0624N0001DJ"])(
    "check letters: %s",
    async (reference) => {
      const res = await create(reference);
      expect(res.status).toBe(400);
      const problem = await problemOf(res);
      expect(problem.detail).toMatch(/check letters/);
      expect(problem.request_id).toBe(res.headers.get("x-request-id"));
    },
  );

  it("stores nothing for a rejected reference", async () => {
    expect(await countOf(t.app.db, sql`select 1 from properties`)).toBe(0);
  });
});
