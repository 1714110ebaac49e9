// The OpenAPI document turned into what the API reference page shows: operations with their
// parameters, body and responses, and the schemas as field tables. Rendered on our own server from
// openApiDocument(), so the reference is always the document the API validates with.
import { z } from "zod";
import type { Config } from "@/lib/config";
import { openApiDocument } from "@/lib/partner-api";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  $ref?: string;
  items?: Schema;
  anyOf?: Schema[];
  format?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
};
// The parts of the document the page reads, checked as it reads them (the document is a plain record).
const SchemaShape: z.ZodType<Schema> = z.lazy(() =>
  z.looseObject({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    properties: z.record(z.string(), SchemaShape).optional(),
    required: z.array(z.string()).optional(),
    enum: z.array(z.unknown()).optional(),
    const: z.unknown().optional(),
    description: z.string().optional(),
    $ref: z.string().optional(),
    items: SchemaShape.optional(),
    anyOf: z.array(SchemaShape).optional(),
    format: z.string().optional(),
    default: z.unknown().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    maxLength: z.number().optional(),
  }),
);
const Parameter = z.object({
  in: z.string(),
  name: z.string(),
  required: z.boolean().optional(),
  description: z.string().optional(),
  schema: SchemaShape,
});
type Parameter = z.infer<typeof Parameter>;
const Content = z.record(z.string(), z.looseObject({ schema: SchemaShape, example: z.unknown().optional() }));
const Response = z.looseObject({
  description: z.string(),
  headers: z.record(z.string(), z.looseObject({ description: z.string().optional() })).optional(),
  content: Content.optional(),
});
const Operation = z.looseObject({
  operationId: z.string().optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  parameters: z.array(z.union([Parameter, z.object({ $ref: z.string() })])).optional(),
  requestBody: z.looseObject({ content: Content }).optional(),
  responses: z.record(z.string(), Response),
});
type Operation = z.infer<typeof Operation>;
const Document = z.looseObject({
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
  servers: z.array(z.looseObject({ url: z.string() })).optional(),
  paths: z.record(z.string(), z.record(z.string(), Operation)),
  webhooks: z.record(z.string(), z.record(z.string(), Operation)).optional(),
  components: z.looseObject({
    schemas: z.record(z.string(), SchemaShape),
    parameters: z.record(z.string(), Parameter).optional(),
    securitySchemes: z
      .record(z.string(), z.looseObject({ type: z.string(), in: z.string().optional(), name: z.string().optional() }))
      .optional(),
  }),
});

/** A type as readers see it: text, plus the schema it links to when it names one. */
export type TypeView = { text: string; ref?: string };
export type FieldView = {
  name: string;
  required: boolean;
  type: TypeView;
  description?: string;
  values?: string[];
  fields?: FieldView[];
};
export type SchemaView = { name: string; anchor: string; description?: string; fields: FieldView[] };
export type ResponseView = {
  status: string;
  description: string;
  contentType?: string;
  type?: TypeView;
  headers: string[];
};
export type OperationView = {
  anchor: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  parameters: { name: string; in: string; required: boolean; type: TypeView; description?: string }[];
  body?: { contentType: string; type: TypeView };
  example?: string;
  responses: ResponseView[];
};

// zod-openapi emits an "…Output" twin of a schema used in responses; readers need one name.
const displayName = (name: string, all: Record<string, Schema>) =>
  name.endsWith("Output") && all[name.slice(0, -6)] ? name.slice(0, -6) : name;
export const schemaAnchor = (name: string) => `schema-${name}`;

function describeType(s: Schema, all: Record<string, Schema>): TypeView {
  if (s.$ref) {
    const name = displayName(s.$ref.split("/").at(-1)!, all);
    return { text: name, ref: schemaAnchor(name) };
  }
  if (s.const !== undefined) return { text: JSON.stringify(s.const) };
  if (s.enum) return { text: "enum" };
  if (s.anyOf) {
    const parts = s.anyOf.map((p) => describeType(p, all));
    return { text: parts.map((p) => p.text).join(" | "), ref: parts.find((p) => p.ref)?.ref };
  }
  if (s.type === "array" && s.items) {
    const item = describeType(s.items, all);
    return { text: `${item.text}[]`, ref: item.ref };
  }
  const base = [s.type].flat().filter(Boolean).join(" | ") || "any";
  return { text: s.format ? base.replace(/^string/, `string (${s.format})`) : base };
}

function fieldsOf(s: Schema, all: Record<string, Schema>): FieldView[] {
  return Object.entries(s.properties ?? {}).map(([name, f]) => {
    const inline = !f.$ref && f.type === "object" && f.properties;
    const limits = [
      f.default !== undefined ? `default ${JSON.stringify(f.default)}` : null,
      f.type === "integer" && f.minimum !== undefined && Math.abs(f.minimum) < 1e9 ? `min ${f.minimum}` : null,
      f.type === "integer" && f.maximum !== undefined && Math.abs(f.maximum) < 1e9 ? `max ${f.maximum}` : null,
      f.maxLength !== undefined ? `at most ${f.maxLength} characters` : null,
    ].filter(Boolean);
    const description = [f.description, limits.length ? `(${limits.join(", ")})` : null].filter(Boolean).join(" ");
    return {
      name,
      required: s.required?.includes(name) ?? false,
      type: inline ? { text: "object" } : describeType(f, all),
      description: description || undefined,
      values: f.enum?.map(String),
      fields: inline ? fieldsOf(f, all) : undefined,
    };
  });
}

function operationsOf(
  paths: Record<string, Record<string, Operation>>,
  base: string,
  all: Record<string, Schema>,
  header: string | null,
  origin: string,
  shared: Record<string, Parameter> = {},
): OperationView[] {
  // Shared parameters (the webhooks' Standard Webhooks headers) are references into components.
  const resolve = (p: Parameter | { $ref: string }): Parameter =>
    "$ref" in p ? shared[p.$ref.split("/").at(-1)!]! : p;
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const bodyContent = op.requestBody ? Object.entries(op.requestBody.content)[0] : undefined;
      const body = bodyContent
        ? { contentType: bodyContent[0], type: describeType(bodyContent[1].schema, all) }
        : undefined;
      const fullPath = `${base}${path}`;
      const example = header
        ? [
            `curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "${origin}${fullPath.replaceAll(/\{(\w+)\}/g, "<$1>")}"`,
            `  -H "${header}: $FINCA_API_KEY"`,
            ...(bodyContent
              ? [
                  `  -H "Content-Type: ${bodyContent[0]}"`,
                  // The operation's own example body (every JSON body has one: test/openapi/examples.test.ts).
                  `  -d '${JSON.stringify(bodyContent[1].example ?? {})}'`,
                ]
              : []),
          ].join(" \\\n")
        : undefined;
      return {
        anchor: op.operationId ?? `${method}-${path}`,
        method,
        path: fullPath,
        summary: op.summary ?? "",
        description: op.description,
        parameters: (op.parameters ?? []).map(resolve).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required ?? false,
          type: describeType(p.schema, all),
          description: p.description ?? p.schema.description,
        })),
        body,
        example,
        responses: Object.entries(op.responses).map(([status, r]) => {
          const content = r.content ? Object.entries(r.content)[0] : undefined;
          return {
            status,
            description: r.description,
            contentType: content?.[0],
            type: content ? describeType(content[1].schema, all) : undefined,
            headers: Object.keys(r.headers ?? {}),
          };
        }),
      };
    }),
  );
}

/** The reference as the page shows it; `origin` is where the reader asked from (the examples' host). */
export function apiReference(config: Config, origin = "https://<your-finca-host>") {
  const doc = Document.parse(openApiDocument(config));
  const all = doc.components.schemas;
  const base = doc.servers?.[0]?.url ?? "";
  const key = Object.values(doc.components.securitySchemes ?? {}).find((s) => s.type === "apiKey" && s.in === "header");
  const schemas: SchemaView[] = Object.entries(all)
    .filter(([name]) => displayName(name, all) === name)
    .map(([name, s]) => ({ name, anchor: schemaAnchor(name), description: s.description, fields: fieldsOf(s, all) }));
  return {
    info: doc.info,
    base,
    authHeader: key?.name ?? null,
    // An absolute server (PUBLIC_BASE_URL) is where the examples go; a relative one, on the reader's origin.
    operations: operationsOf(doc.paths, base, all, key?.name ?? null, /^https?:/.test(base) ? "" : origin),
    webhooks: operationsOf(doc.webhooks ?? {}, "", all, null, origin, doc.components.parameters),
    schemas,
  };
}
