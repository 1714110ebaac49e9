// zod issues → the contract's 422 (JSON Pointers into the body, or query parameter names).
import type { z } from "zod";
import { DomainError, type FieldError } from "./errors";

const pointer = (path: PropertyKey[]) =>
  path.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("");

function present(body: unknown, path: PropertyKey[]): boolean {
  let node = body;
  for (const key of path) {
    if (node === null || typeof node !== "object" || !(key in node)) return false;
    node = Reflect.get(node, key);
  }
  return true;
}

function fieldErrors(issue: z.core.$ZodIssue, body: unknown): FieldError[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({ pointer: pointer([...issue.path, key]), detail: "unknown field" }));
  }
  if (issue.code === "invalid_type" && !present(body, issue.path)) {
    return [{ pointer: pointer(issue.path), detail: "required" }];
  }
  return [{ pointer: pointer(issue.path), detail: issue.message }];
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new DomainError("validation_error", "The body must be a JSON object.", [
      { pointer: "", detail: "expected an object" },
    ]);
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const errors = result.error.issues.flatMap((issue) => fieldErrors(issue, body));
  throw new DomainError("validation_error", "The request body is invalid.", errors);
}

export function parseQuery<S extends z.ZodType>(schema: S, url: URL): z.infer<S> {
  const raw: Record<string, string> = {};
  const errors: FieldError[] = [];
  for (const [key, value] of url.searchParams) {
    if (key in raw) errors.push({ parameter: key, detail: "given more than once" });
    raw[key] = value;
  }
  const result = schema.safeParse(raw);
  if (result.success && !errors.length) return result.data;
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === "unrecognized_keys")
        errors.push(...issue.keys.map((k) => ({ parameter: k, detail: "unknown parameter" })));
      else errors.push({ parameter: String(issue.path[0] ?? ""), detail: issue.message });
    }
  }
  throw new DomainError("validation_error", "The query parameters are invalid.", errors);
}

/**
 * The headers a schema names (its keys, any case on the wire), else a 422 naming each header once
 * with its first problem.
 */
export function parseHeaders<S extends z.ZodObject>(schema: S, headers: Headers): z.infer<S> {
  const raw = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, headers.get(name) ?? undefined]));
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const errors = new Map<string, string>();
  for (const issue of result.error.issues) {
    const header = String(issue.path[0] ?? "");
    if (!errors.has(header)) errors.set(header, issue.message);
  }
  const named = [...errors].map(([header, detail]) => ({ header, detail }));
  const [only] = named;
  throw new DomainError(
    "validation_error",
    only && named.length === 1 ? `The ${only.header} header ${only.detail}.` : "The headers are invalid.",
    named,
  );
}
