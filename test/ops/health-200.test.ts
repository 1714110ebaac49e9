// GET /api/health: liveness, without a key and without the database (it answers while the
// database is gone, so an orchestrator never restarts the process for an outage elsewhere).
import { expect, it } from "vitest";
import { healthResponse } from "@/lib/ops";
import { createTestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { serve } from "./support";

it("answers 200 without a key, through the lean server, also with the database closed", async () => {
  const t = await createTestApp({ sources: fakeSources() });
  const server = await serve(t);
  try {
    const res = await fetch(server.url("/api/health"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "ok" });
    await t.app.database.close();
    expect((await fetch(server.url("/api/health"))).status).toBe(200);
  } finally {
    await server.close();
    await t.close().catch(() => {}); // the database is closed already
  }
});

it("is the same answer the Next.js route gives (app/api/health/route.ts)", async () => {
  const { GET } = await import("@/app/api/health/route");
  expect(await GET().json()).toEqual(await healthResponse().json());
});
