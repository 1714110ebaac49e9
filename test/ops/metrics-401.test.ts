// GET /metrics with METRICS_TOKEN set: only `Authorization: Bearer <token>` gets the metrics.
import { expect, it } from "vitest";
import { useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { serve } from "./support";

let t: TestApp;
useTestApp({ sources: fakeSources(), env: { METRICS_TOKEN: "scrape-token-0123" } }, (ctx) => ({ t } = ctx));

it("answers 401 without the token or with another, 200 with it", async () => {
  const server = await serve(t);
  try {
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: "Bearer scrape-token-012" },
      { Authorization: "Basic scrape-token-0123" },
      { Authorization: "Bearer scrape-token-01234" },
      // The bare token, without its scheme.
      { Authorization: "scrape-token-0123" },
    ]) {
      const res = await fetch(server.url("/metrics"), { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await res.text()).not.toContain("finca_");
    }
    const res = await fetch(server.url("/metrics"), { headers: { Authorization: "Bearer scrape-token-0123" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("# TYPE finca_http_requests_total counter");
  } finally {
    await server.close();
  }
});
