// The admin console's register health from the attempt log: attempts, the share answered and the
// p50/p99 of the attempts that asked the register, over the last hour and day; the last error.
import { expect, it } from "vitest";
import { schema } from "@/lib/db";
import { registerHealth } from "@/lib/portal/registers";
import { post, useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

it("summarises each register's attempts per window; a register never asked has empty windows", async () => {
  const created = await t.api.createProperty(
    post("/properties", { cadastral_reference: "2749704YJ0624N0001DI" }, { "X-API-Key": key }),
  );
  const { property_id: propertyId } = await created.json();
  const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  const attempt = (
    provider: string,
    minutes: number,
    outcome: "completed" | "not_found" | "error" | "timeout",
    durationMs: number,
    error: string | null = null,
  ) => ({
    propertyId,
    source: "cadastre" as const,
    attempt: 1,
    trigger: "job" as const,
    provider,
    startedAt: ago(minutes),
    durationMs,
    outcome,
    error,
  });
  await t.app.db.insert(schema.enrichmentAttempts).values([
    // Last hour: 3 answers, a failure that asked (5 s) and one an open breaker refused (0 ms).
    attempt("catastro-ovc", 1, "completed", 100),
    attempt("catastro-ovc", 2, "completed", 200),
    attempt("catastro-ovc", 3, "not_found", 300),
    attempt("catastro-ovc", 10, "error", 5000, "upstream_status_503"),
    attempt("catastro-ovc", 5, "error", 0, "register_unavailable"),
    // Earlier today, and before yesterday (outside both windows, but still the last error of gva-wfs).
    attempt("catastro-ovc", 120, "not_found", 50),
    attempt("gva-wfs", 3 * 24 * 60, "timeout", 1500, "timeout"),
  ]);
  const [catastro, gva, icaen] = await registerHealth(t.app.db, ["catastro-ovc", "gva-wfs", "icaen-socrata"]);
  expect(catastro!.provider).toBe("catastro-ovc");
  expect(catastro!.hour).toMatchObject({ attempts: 5, successRate: 3 / 5 });
  // Over 100, 200, 300, 5000 (the refused attempt took no register time).
  expect(catastro!.hour.p50Ms).toBe(250);
  expect(catastro!.hour.p99Ms).toBeCloseTo(300 + 0.97 * 4700, 6);
  expect(catastro!.day).toMatchObject({ attempts: 6, successRate: 4 / 6, p50Ms: 200 });
  expect(catastro!.lastError).toEqual({ code: "register_unavailable", at: expect.any(Date) });
  expect(Math.abs(catastro!.lastError!.at.getTime() - ago(5).getTime())).toBeLessThan(60_000);
  expect(gva).toMatchObject({
    hour: { attempts: 0, successRate: null, p50Ms: null },
    day: { attempts: 0, successRate: null, p99Ms: null },
    lastError: { code: "timeout" },
  });
  expect(icaen).toMatchObject({ provider: "icaen-socrata", day: { attempts: 0 }, lastError: null });
});
