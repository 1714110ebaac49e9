// What the OpenAPI document must say, beyond what linters check: the API as the server really
// behaves (headers, parameters, timestamps, webhooks).
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { openApiDocument, operations } from "@/lib/partner-api";
import { apiReference } from "@/lib/portal/openapi-view";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked loosely; each test checks what it reads.
type Json = Record<string, any>;
const doc = openApiDocument(loadConfig({})) as Json;
const ops = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })),
);

/** The document's server, contact and licence on `base`, its contact's email `email`. */
function expectPlaced(placed: Json, base: string, email: string) {
  expect(placed.servers).toEqual([{ url: `${base}/api/v1/partner-api` }]);
  expect(placed.info.contact).toEqual({ name: "Finca partner support", url: `${base}/docs`, email });
  expect(placed.info.license.url).toBe(`${base}/docs#terms`);
}

describe("the OpenAPI document", () => {
  it("has every operation of the table, each with operationId, a declared tag and a description", () => {
    expect(ops.map((o) => o.op.operationId).sort()).toEqual(operations.map((o) => o.id).sort());
    const tags = (doc.tags as { name: string; description: string }[]).map((t) => t.name);
    for (const { op } of ops) {
      expect(op.description, op.operationId).toMatch(/\S/);
      expect(tags).toContain(op.tags[0]);
    }
  });

  it("names its server, contact and licence from the deployment's PUBLIC_BASE_URL and SUPPORT_EMAIL", () => {
    expect(doc.servers).toEqual([{ url: "/api/v1/partner-api" }]);
    expect(doc.info.contact).toEqual({ name: "Finca partner support" });
    const deployed = openApiDocument(
      loadConfig({ PUBLIC_BASE_URL: "https://api.finca.example/", SUPPORT_EMAIL: "partners@finca.example" }),
    ) as Json;
    expectPlaced(deployed, "https://api.finca.example", "partners@finca.example");
    expect(() => loadConfig({ PUBLIC_BASE_URL: "ftp://finca.example" })).toThrow();
  });

  it("is placed on the origin it was asked on where PUBLIC_BASE_URL is unset, with its support mailbox", () => {
    const config = loadConfig({});
    const asked = openApiDocument(config, "https://api.finca.example") as Json;
    expectPlaced(asked, "https://api.finca.example", "support@api.finca.example");
    // Only the whereabouts differ; the made document stays as it was.
    expect({ ...asked, info: doc.info, servers: doc.servers }).toEqual(doc);
    expect((openApiDocument(config) as Json).servers).toEqual([{ url: "/api/v1/partner-api" }]);
    // No mailbox is made up for a host with no domain.
    for (const local of ["http://localhost:4400", "http://127.0.0.1:4400"])
      expect((openApiDocument(config, local) as Json).info.contact, local).toEqual({
        name: "Finca partner support",
        url: `${local}/docs`,
      });
    // The deployment's own settings win over where it was asked.
    const configured = loadConfig({ PUBLIC_BASE_URL: "https://api.finca.es", SUPPORT_EMAIL: "partners@finca.es" });
    expect(openApiDocument(configured, "http://evil.example")).toBe(openApiDocument(configured));
    const noEmail = openApiDocument(loadConfig({ PUBLIC_BASE_URL: "https://api.finca.es" }), "http://evil.example");
    expect((noEmail as Json).info.contact.email).toBe("support@api.finca.es");
  });

  it("declares X-Request-Id on every response, rate-limit headers on exactly the counted writes' answers", () => {
    for (const { method, op } of ops) {
      const write = operations.find((o) => o.id === op.operationId)!.write;
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const headers = Object.keys(response.headers ?? {});
        expect(headers, `${op.operationId} ${status}`).toContain("X-Request-Id");
        // A write is counted once its key is known: every answer but the 401 carries the headers.
        expect(headers.includes("RateLimit"), `${method} ${op.operationId} ${status}`).toBe(write && status !== "401");
      }
    }
    expect(Object.keys(doc.components.headers)).toEqual(
      expect.arrayContaining(["XRequestId", "RateLimit", "RateLimitPolicy", "RetryAfter"]),
    );
  });

  it("gives format date-time to every timestamp member", () => {
    const timestamps: string[] = [];
    for (const [name, schema] of Object.entries(doc.components.schemas as Json)) {
      for (const [member, value] of Object.entries((schema.properties ?? {}) as Json)) {
        if (!/_at$|^timestamp$/.test(member)) continue;
        timestamps.push(`${name}.${member}`);
        const formats = [value.format, ...(value.anyOf ?? []).map((v: Json) => v.format)];
        expect(formats, `${name}.${member}`).toContain("date-time");
      }
    }
    expect(timestamps).toEqual(
      expect.arrayContaining(["Property.created_at", "Property.enriched_at", "propertyEnrichedEvent.timestamp"]),
    );
  });

  it("declares path ids as the server treats them: any text, a non-id answers 404", () => {
    const get = ops.find((o) => o.op.operationId === "getProperty")!.op;
    const id = (get.parameters as Json[]).find((p) => p.name === "id")!;
    expect(id.schema).toEqual({ type: "string", description: expect.stringContaining("404") });
    expect(Object.keys(get.responses)).toContain("404");
  });

  it("declares the estimated certificate's members", () => {
    const members = Object.keys(doc.components.schemas.EnergyCertificate.properties);
    expect(members).toEqual(
      expect.arrayContaining(["probabilities", "confidence", "basis", "plausible_range", "source"]),
    );
  });

  it("describes every event under webhooks with the Standard Webhooks headers as shared parameters", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(["batch.completed", "property.enriched", "webhook.test"]);
    for (const event of Object.values(doc.webhooks as Json)) {
      expect(event.post.operationId).toMatch(/\S/);
      expect(event.post.parameters.map((p: Json) => p.$ref)).toEqual(
        ["WebhookId", "WebhookTimestamp", "WebhookSignature"].map((n) => `#/components/parameters/${n}`),
      );
    }
    expect(Object.values(doc.components.parameters as Json).map((p) => p.name)).toEqual([
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
    ]);
  });

  it("renders as the portal's API reference: every operation, its example body, every event with its headers", () => {
    const reference = apiReference(loadConfig({}));
    expect(reference.operations.map((o) => o.anchor).sort()).toEqual(operations.map((o) => o.id).sort());
    // Each curl sends its operation's own example body.
    const create = ops.find((o) => o.op.operationId === "createBatch")!.op;
    expect(reference.operations.find((o) => o.anchor === "createBatch")!.example).toContain(
      `-d '${JSON.stringify(create.requestBody.content["application/json"].example)}'`,
    );
    expect(reference.webhooks.map((w) => w.parameters.map((p) => p.name))).toEqual(
      [0, 1, 2].map(() => ["webhook-id", "webhook-timestamp", "webhook-signature"]),
    );
    // Its curls go to the reader's origin, or to the deployment's own where PUBLIC_BASE_URL says it.
    const first = (r: ReturnType<typeof apiReference>) => r.operations.find((o) => o.anchor === "listBatches")!.example;
    expect(first(apiReference(loadConfig({}), "http://localhost:3000"))).toMatch(
      /^curl "http:\/\/localhost:3000\/api\/v1\/partner-api\/batches"/,
    );
    const deployed = apiReference(loadConfig({ PUBLIC_BASE_URL: "https://api.finca.es" }), "http://localhost:3000");
    expect(first(deployed)).toMatch(/^curl "https:\/\/api\.finca\.es\/api\/v1\/partner-api\/batches"/);
  });
});
