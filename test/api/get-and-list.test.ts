import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, get, newPartnerKey, post, problemOf, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { checkLetters } from "@/lib/cadastral-reference";

let t: TestApp;
let key: string;
const ids: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
  ({ key } = await newPartnerKey(t.app));
  for (let i = 1; i <= 7; i++) {
    const first18 = "9398516VK3799G" + String(i).padStart(4, "0");
    const res = await t.api.createProperty(
      post("/properties", { cadastral_reference: first18 + checkLetters(first18) }, { "X-API-Key": key }),
    );
    ids.push((await res.json()).property_id);
  }
});
afterAll(() => t.close());

const list = async (query = "") => t.api.listProperties(get(`/properties${query}`, { "X-API-Key": key }));

describe("GET /properties/{id}", () => {
  it("returns the property", async () => {
    const res = await t.api.getProperty(get(`/properties/${ids[0]}`, { "X-API-Key": key }));
    expect(res.status).toBe(200);
    expect((await res.json()).property_id).toBe(ids[0]);
  });
  it("404 for a malformed id", async () => {
    const res = await t.api.getProperty(get(`/properties/not-a-uuid`, { "X-API-Key": key }));
    expect((await problemOf(res)).code).toBe("not_found");
  });
});

describe("GET /properties", () => {
  it("pages newest first with a cursor, without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor = "";
    for (;;) {
      const page = await (await list(`?limit=3${cursor ? `&starting_after=${cursor}` : ""}`)).json();
      seen.push(...page.data.map((p: { property_id: string }) => p.property_id));
      if (!page.has_more) {
        expect(page.next_starting_after).toBeNull();
        break;
      }
      cursor = page.next_starting_after;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it("filters by status", async () => {
    expect((await (await list("?status=enriched")).json()).data).toHaveLength(7);
    expect((await (await list("?status=enriching")).json()).data).toHaveLength(0);
  });

  it.each([
    ["?limit=0", "limit"],
    ["?limit=101", "limit"],
    ["?limit=abc", "limit"],
    ["?limit=1e2", "limit"],
    ["?limit=0x10", "limit"],
    ["?limit=%205", "limit"],
    ["?status=done", "status"],
    ["?starting_after=xyz", "starting_after"],
    ["?starting_after=00000000-0000-4000-8000-000000000000", "starting_after"],
    ["?foo=1", "foo"],
    ["?cadastral_reference=%00", "cadastral_reference"],
  ])("422 for %s", async (query, parameter) => {
    const res = await list(query);
    expect(res.status).toBe(422);
    const problem = await problemOf(res);
    expect(problem.errors?.[0]?.parameter).toBe(parameter);
  });
});

describe("GET /openapi.json", () => {
  it("is OpenAPI 3.1 generated from the zod schemas", async () => {
    const res = await t.api.getOpenApiDocument(new Request("http://finca.test/api/v1/partner-api/openapi.json"));
    expect(res.status).toBe(200);
    // Placed on the origin asked (no PUBLIC_BASE_URL here): caches key it by the headers that name it.
    expect(res.headers.get("Vary")).toBe("Host, X-Forwarded-Host, X-Forwarded-Proto");
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/properties", "/properties/{id}", "/webhook-endpoints", "/webhook-endpoints/{id}"]),
    );
    expect(doc.components.schemas.CreatePropertyRequest).toMatchObject({
      type: "object",
      required: ["cadastral_reference"],
      additionalProperties: false,
    });
    expect(doc.components.schemas.Property.properties.ite_fetch_status.enum).toEqual([
      "pending",
      "found",
      "not_found",
      "not_required",
      "unsupported",
      "failed",
    ]);
    expect(Object.keys(doc.paths["/properties"].post.responses).sort()).toEqual([
      "200",
      "201",
      "400",
      "401",
      "422",
      "429",
    ]);
  });
});
