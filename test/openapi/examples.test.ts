// Every operation of the OpenAPI document shows an example of its request (its body, its
// parameters) and of each answer with a body, every event an example of itself, and each example
// is one its operation's own zod schemas accept: an example that drifts from its schema fails here (Redocly and Spectral check
// them against the document's JSON schemas too: test/openapi/lint.test.ts).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkReference } from "@/lib/cadastral-reference";
import { loadConfig } from "@/lib/config";
import { Batch, isUuid, Property } from "@/lib/domain";
import { openApiDocument, operations } from "@/lib/partner-api";
import { declaredSchema } from "@/lib/partner-api/openapi";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked loosely; each test checks what it reads.
type Json = Record<string, any>;
const config = loadConfig({});
const doc = openApiDocument(config) as Json;
const cases = operations.map((op) => ({ op, document: doc.paths[op.path][op.method.toLowerCase()] as Json }));
/** Media types whose bodies are bytes, not text: no example can show one. */
const binary = (media: Json) => media.schema?.format === "binary";

const problems = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];

describe("the OpenAPI document's examples", () => {
  it("show every operation's request: each body's media type (but bytes), and its parameters", () => {
    const missing: string[] = [];
    for (const { op, document } of cases) {
      for (const [type, media] of Object.entries((document.requestBody?.content ?? {}) as Json))
        if (!binary(media) && media.example === undefined) missing.push(`${op.id} body ${type}`);
      const parameters = (document.parameters ?? []) as Json[];
      // An optional header (Idempotency-Key) is no part of the request to show.
      const shown = parameters.filter((p) => p.in !== "header");
      if (shown.length && !shown.some((p) => p.example !== undefined)) missing.push(`${op.id} parameters`);
      if (op.request?.path && !shown.some((p) => p.in === "path" && p.example !== undefined))
        missing.push(`${op.id} path`);
    }
    expect(missing).toEqual([]);
    expect(cases.filter(({ op }) => op.request?.body || op.request?.path || op.request?.query)).toHaveLength(12);
  });

  it("show every answer that has a body (but bytes): each success and each problem", () => {
    const missing: string[] = [];
    for (const { op, document } of cases)
      for (const [status, response] of Object.entries(document.responses as Json))
        for (const [type, media] of Object.entries((response.content ?? {}) as Json))
          if (!binary(media) && media.example === undefined) missing.push(`${op.id} ${status} ${type}`);
    expect(missing).toEqual([]);
    // Every operation answers with a body shown, but the delete whose success is a 204.
    const withSuccess = cases.filter(({ document }) =>
      Object.entries(document.responses as Json).some(
        ([status, r]) => status.startsWith("2") && Object.values((r.content ?? {}) as Json).some((m) => m.example),
      ),
    );
    expect(cases.length - withSuccess.length).toBe(1);
  });

  it("are each accepted by the operation's own schemas: bodies, parameters and answers", () => {
    const found: string[] = [];
    let checked = 0;
    for (const { op, document } of cases) {
      const request = op.request ?? {};
      for (const [type, media] of Object.entries((document.requestBody?.content ?? {}) as Json)) {
        if (media.example === undefined) continue;
        const schema = type === "application/json" ? request.body : request.alsoAccepts?.[type];
        found.push(...problems(schema!, media.example).map((p) => `${op.id} body ${type} ${p}`));
        checked++;
      }
      for (const parameter of (document.parameters ?? []) as Json[]) {
        if (parameter.example === undefined) continue;
        const part = { path: request.path, query: request.query, header: request.headers }[parameter.in as string];
        // A parameter is text on the wire, parsed as the wrapper parses it.
        const value = { [parameter.name]: String(parameter.example) };
        found.push(...problems(part!.partial(), value).map((p) => `${op.id} ${parameter.name} ${p}`));
        checked++;
      }
      for (const [status, response] of Object.entries(document.responses as Json))
        for (const [type, media] of Object.entries((response.content ?? {}) as Json)) {
          if (media.example === undefined) continue;
          const schema = declaredSchema(op, config, Number(status), type);
          found.push(...problems(schema!, media.example).map((p) => `${op.id} ${status} ${type} ${p}`));
          checked++;
        }
    }
    expect(found).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });

  it("use real references and ids: valid check letters (but the refused one's), UUIDs, request ids, times", () => {
    const seen = { references: new Set<string>(), ids: 0, times: 0 };
    const refused = new Set<string>();
    const walk = (value: unknown, where: string): void => {
      if (Array.isArray(value)) {
        for (const [i, v] of value.entries()) walk(v, `${where}/${i}`);
        return;
      }
      if (value === null || typeof value !== "object") return;
      const item = value as Json;
      for (const [member, v] of Object.entries(item)) {
        if (member === "cadastral_reference" && typeof v === "string") {
          seen.references.add(v);
          if (item.status === "invalid") refused.add(v);
        } else if (member === "request_id") {
          expect(v, `${where}/${member}`).toMatch(/^req_[0-9a-f]{32}$/);
        } else if (/^(id|property_id|batch_id)$/.test(member) && typeof v === "string") {
          expect(isUuid(v), `${where}/${member}: ${v}`).toBe(true);
          seen.ids++;
        } else if (/_at$/.test(member) && typeof v === "string") {
          expect(new Date(v).toISOString(), `${where}/${member}`).toBe(v);
          seen.times++;
        } else walk(v, `${where}/${member}`);
      }
    };
    for (const { op, document } of cases) {
      for (const media of Object.values((document.requestBody?.content ?? {}) as Json)) walk(media.example, op.id);
      for (const response of Object.values(document.responses as Json))
        for (const media of Object.values((response.content ?? {}) as Json)) walk(media.example, op.id);
    }
    // The one reference shown refused (a portfolio's mistyped item) is the one whose check letters are wrong.
    const invalid = [...seen.references].filter((r) => !checkReference(r).ok);
    expect(invalid).toEqual([...refused]);
    expect(invalid).toHaveLength(1);
    expect(seen.references.size).toBeGreaterThan(1);
    expect(seen.ids).toBeGreaterThan(10);
    expect(seen.times).toBeGreaterThan(10);
  });

  it("show every event as it is sent: `{type, timestamp, data}`, its data of the event's schema", () => {
    const schemas: Record<string, z.ZodType> = {
      "property.enriched": Property,
      "batch.completed": Batch,
      "webhook.test": z.strictObject({ endpoint_id: z.uuid(), message: z.string().min(1) }),
    };
    expect(Object.keys(doc.webhooks).sort()).toEqual(Object.keys(schemas).sort());
    for (const [type, event] of Object.entries(doc.webhooks as Json)) {
      const shown = event.post.requestBody.content["application/json"].example;
      expect(shown).toMatchObject({ type, timestamp: expect.any(String) });
      expect(new Date(shown.timestamp).toISOString()).toBe(shown.timestamp);
      expect(problems(schemas[type]!, shown.data), type).toEqual([]);
    }
  });

  it("show the served document as it begins", () => {
    const get = cases.find(({ op }) => op.id === "getOpenApiDocument")!.document;
    expect(doc).toMatchObject(get.responses["200"].content["application/json"].example);
  });
});
