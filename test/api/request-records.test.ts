// Every answer is reported once to `onRequest` (the seam logs, metrics and request logs listen on),
// with the operation, status, timing and the key's visible start, never the key itself.
import { expect, it } from "vitest";
import { createPartnerApi } from "@/lib/partner-api";
import type { RequestRecord } from "@/lib/partner-api/operation";
import { BASE, get, post, useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

it("reports each answer with its operation, status and key start; unknown paths and bad keys too", async () => {
  const records: RequestRecord[] = [];
  const api = createPartnerApi({ ...t.app, onRequest: (r) => records.push(r) });
  const created = await api.dispatch(
    post("/properties", { cadastral_reference: "2749704YJ0624N0001DI" }, { "X-API-Key": key, "X-Request-Id": "rec-1" }),
  );
  await api.dispatch(get("/properties?limit=0", { "X-API-Key": key }));
  await api.dispatch(get("/properties", { "X-API-Key": "finca_test_nope" }));
  await api.dispatch(new Request(`${BASE}/nothing`, { method: "DELETE" }));
  expect(created.status).toBe(201);
  expect(records.map((r) => [r.operationId, r.status, r.errorCode])).toEqual([
    ["createProperty", 201, null],
    ["listProperties", 422, "validation_error"],
    ["listProperties", 401, "missing_api_key"],
    [null, 404, "not_found"],
  ]);
  expect(records[0]).toMatchObject({
    requestId: "rec-1",
    method: "POST",
    path: "/api/v1/partner-api/properties",
    mode: "test",
    keyStart: key.slice(0, 17),
  });
  expect(records[0]!.durationMs).toBeGreaterThanOrEqual(0);
  expect(JSON.stringify(records)).not.toContain(key);
  expect(records[2]).toMatchObject({ partnerId: null, keyStart: null });
});
