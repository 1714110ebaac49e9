// GET /api/ready: 200 when the database answers, every migration is applied and the queue runs.
import { expect, it } from "vitest";
import { useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { serve } from "./support";

let t: TestApp;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t } = ctx));

it("answers 200 with each check's state, without a key, through the lean server", async () => {
  const server = await serve(t);
  try {
    const res = await fetch(server.url("/api/ready"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      status: "ready",
      checks: { shutdown: "ok", database: "ok", migrations: "ok", queue: "ok" },
    });
    // Only GET and HEAD: another method is the API's 404 (no operation there).
    expect((await fetch(server.url("/api/ready"), { method: "POST" })).status).toBe(404);
  } finally {
    await server.close();
  }
});
